import { TIER_CEILING } from '../../core/tiers.ts';
import type { ToolSpec } from '../../core/registry.ts';
import { explainScopes, explainTools } from '../../core/policy/index.ts';
import type { ToolContext } from '../context.ts';
import { ok } from '../result.ts';
import { output, untrustedText } from '../schemas.ts';
import { mandateTerms, mandateTermsSchema } from './view.ts';

const strings = { type: 'array', items: { type: 'string' } };

export const getMandate: ToolSpec<ToolContext, Record<string, never>> = {
  name: 'get_mandate',
  title: "Your principal's mandate and your effective permissions",
  scope: 'mandate:read',
  description:
    "Your principal's mandate (scopes and terms), your tier, your token's scopes, your effective scopes (token ∩ mandate ∩ tier ceiling, recomputed on every request), and why each tool you cannot see is hidden. Use it before asking your principal for more.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: output({
    principal: { type: 'string' },
    tier: { enum: ['candidate', 'member'] },
    token: {
      anyOf: [
        output({
          id: { type: 'string' },
          label: untrustedText,
          expires_at: { type: ['string', 'null'] },
        }),
        { type: 'null' },
      ],
    },
    token_scopes: strings,
    mandate: output({ scopes: strings, ...mandateTermsSchema }),
    tier_ceiling: strings,
    effective_scopes: strings,
    scopes: {
      type: 'array',
      items: output({
        scope: { type: 'string' },
        granted: { type: 'boolean' },
        missing: strings,
        why: { type: ['string', 'null'] },
      }),
    },
    tools: {
      type: 'array',
      items: output({
        name: { type: 'string' },
        scope: { type: ['string', 'null'] },
        visible: { type: 'boolean' },
        missing: strings,
        why: { type: ['string', 'null'] },
      }),
    },
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  words: { sends: [], serves: 'own' },
  async handler(_args, ctx) {
    const caller = ctx.caller;
    if (caller.kind === 'anonymous') throw new Error('get_mandate reached without a principal');
    const p = caller.permissions;
    const m = caller.mandate;
    return ok({
      principal: caller.principal.handle,
      tier: p.tier === 'member' ? 'member' : 'candidate',
      token:
        caller.kind === 'agent'
          ? {
              id: caller.token.id,
              label: ctx.wrapper.wrap(caller.token.label),
              expires_at: caller.token.expiresAt,
            }
          : null,
      token_scopes: caller.kind === 'agent' ? caller.token.scopes : [],
      mandate: { scopes: m.scopes, ...mandateTerms(m) },
      tier_ceiling: [...TIER_CEILING[p.tier]],
      effective_scopes: [...p.effective],
      scopes: explainScopes(p),
      tools: explainTools(ctx.registry, p),
    });
  },
};
