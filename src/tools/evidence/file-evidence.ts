import { checkArtifact, EVIDENCE_ORIGINS, type Origin } from '../../core/evidence.ts';
import type { ToolSpec } from '../../core/registry.ts';
import { sameRequest } from '../../core/same-request.ts';
import { evaluateEvidenceTerms } from '../../core/terms.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { approvedByPrincipal, queueForPrincipal } from '../decisions.ts';
import { presentEvidence } from '../present.ts';
import { ok, refuse } from '../result.ts';
import { evidenceItem, input, output, queuedResult } from '../schemas.ts';

export const fileEvidence: ToolSpec<ToolContext, { origin: Origin; claim: string; artifact_ref?: string }> = {
  name: 'file_evidence',
  title: 'File evidence of what your principal did',
  scope: 'evidence:write',
  description:
    'Records something your principal actually did. origin "manual" is self-report; any other origin (commit, document, calendar) says the fact comes from that artifact and must carry artifact_ref pointing at it: a commit as repository URL and full hash (https://host/owner/repo@<40 hex>), a document as an https URL on a public host, a calendar event as an https:/webcal: URL, an iCalendar UID (uid@domain), urn:uuid:… or a provider’s event id. Without it the claim is refused: self-report in costume. By default a manual self-report is queued for your principal.',
  inputSchema: input(
    {
      origin: { enum: [...EVIDENCE_ORIGINS] },
      claim: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        description: 'What your principal did, in one or two sentences.',
      },
      artifact_ref: {
        type: 'string',
        maxLength: 2000,
        description: 'Required unless origin is manual.',
      },
    },
    ['origin', 'claim'],
  ),
  outputSchema: { type: 'object', oneOf: [output({ filed: evidenceItem }), queuedResult] },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  words: { sends: ['claim', 'artifact_ref'], serves: 'own' },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    if (!args.claim.trim()) {
      return refuse('invalid_value', 'The claim is blank.', 'Say in words what your principal did.');
    }
    const artifact = checkArtifact(args.origin, args.artifact_ref);
    if (!artifact.ok) return { ok: false, refusal: artifact.refusal };
    if (ctx.caller.kind === 'agent' && !approvedByPrincipal(ctx)) {
      const terms = evaluateEvidenceTerms(ctx.caller.mandate, args.origin);
      if (!terms.within)
        return queueForPrincipal(
          ctx,
          'file_evidence',
          { ...args },
          terms,
          sameRequest.selfReport(args.claim),
        );
    }
    const record = await ctx.store.addEvidence({
      principalId: me.id,
      origin: args.origin,
      claim: args.claim,
      artifactRef: artifact.ref,
    });
    return ok({ filed: presentEvidence(record, ctx.wrapper) });
  },
};
