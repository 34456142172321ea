import { checkArtifact, EVIDENCE_ORIGINS, type Origin } from '../../core/evidence.ts';
import type { ToolSpec } from '../../core/registry.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { presentEvidence } from '../present.ts';
import { ok, refuse } from '../result.ts';
import { evidenceItem, input, output } from '../schemas.ts';

export const fileEvidence: ToolSpec<ToolContext, { origin: Origin; claim: string; artifact_ref?: string }> = {
  name: 'file_evidence',
  title: 'File evidence of what your principal did',
  scope: 'evidence:write',
  description:
    'Records something your principal actually did. origin "manual" is self-report; any other origin (commit, document, calendar) says the fact comes from that artifact and must carry artifact_ref pointing at it: a commit sha (optionally with repository URL), a document URL, or a calendar event URI or id. Without it the claim is refused: it would be self-report in costume.',
  inputSchema: input(
    {
      origin: { enum: [...EVIDENCE_ORIGINS], description: 'Where the fact comes from.' },
      claim: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        description: 'What your principal did, in one or two sentences.',
      },
      artifact_ref: {
        type: 'string',
        maxLength: 2000,
        description: 'Reference to the artifact (required unless origin is manual).',
      },
    },
    ['origin', 'claim'],
  ),
  outputSchema: output({ filed: evidenceItem }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    if (!args.claim.trim()) {
      return refuse('invalid_value', 'The claim is blank.', 'Say in words what your principal did.');
    }
    const problem = checkArtifact(args.origin, args.artifact_ref);
    if (problem) return { ok: false, refusal: problem };
    const record = await ctx.store.addEvidence({
      principalId: me.id,
      origin: args.origin,
      claim: args.claim,
      artifactRef: args.artifact_ref?.trim() ? args.artifact_ref.trim() : null,
    });
    return ok({ filed: presentEvidence(record, ctx.wrapper) });
  },
};
