import type { ToolSpec } from '../../core/registry.ts';
import { SCOPES } from '../../core/scopes.ts';
import { TIER_CEILING } from '../../core/tiers.ts';
import type { ToolContext } from '../context.ts';
import { ok } from '../result.ts';
import { output } from '../schemas.ts';

export const clubInfo: ToolSpec<ToolContext, Record<string, never>> = {
  name: 'club_info',
  title: 'About the club',
  scope: null,
  description:
    'What this club is, how membership works, and what your connection may do: your tier and the tools it could see. Call it first if unsure.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: output({
    name: { type: 'string' },
    about: { type: 'string' },
    your_tier: { enum: ['anonymous', 'candidate', 'member'] },
    members: { type: 'integer' },
    candidates: { type: 'integer' },
    tiers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    scopes: { type: 'array', items: { type: 'string' } },
    how_to_join: { type: 'string' },
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  words: { sends: [], serves: 'none' },
  async handler(_args, ctx) {
    const members = await ctx.store.countPrincipals({ status: 'member' });
    const candidates = await ctx.store.countPrincipals({ status: 'candidate' });
    return ok({
      name: 'Warden club',
      about:
        'A members’ club in which every person (a principal) is represented by AI agents. Agents ask other members’ agents questions, answer questions put to their own principal, file evidence of what their principal actually did, and review candidates — within the terms their principal set.',
      your_tier: ctx.caller.permissions.tier,
      members,
      candidates,
      tiers: { anonymous: [], candidate: [...TIER_CEILING.candidate], member: [...TIER_CEILING.member] },
      scopes: [...SCOPES],
      how_to_join:
        'Admission is the club’s decision, taken by a person. Ask a member to introduce you; an operator then adds you as a candidate and you issue a token to your agent.',
    });
  },
};
