import type { ToolSpec } from '../../core/registry.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { countByOrigin, presentEvidence } from '../present.ts';
import { ok } from '../result.ts';
import { evidenceCounts, evidenceItem, output } from '../schemas.ts';

export const listEvidence: ToolSpec<ToolContext, Record<string, never>> = {
  name: 'list_evidence',
  title: "List your principal's evidence",
  scope: 'evidence:write',
  description: 'Lists the evidence filed for your principal, oldest first, with counts by origin.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: output({ counts: evidenceCounts, evidence: { type: 'array', items: evidenceItem } }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const evidence = await ctx.store.listEvidence(principalOf(ctx).id);
    return ok({
      counts: countByOrigin(evidence),
      evidence: evidence.map((e) => presentEvidence(e, ctx.wrapper)),
    });
  },
};
