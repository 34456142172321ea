import type { ToolSpec } from '../../core/registry.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { pageInputs, pageOutputs, parseTimeKey, readPage, timeKey, type PageArgs } from '../paging.ts';
import { presentEvidence } from '../present.ts';
import { ok } from '../result.ts';
import { evidenceCounts, evidenceItem, input, output } from '../schemas.ts';

export const listEvidence: ToolSpec<ToolContext, PageArgs> = {
  name: 'list_evidence',
  title: "List your principal's evidence",
  scope: 'evidence:write',
  description: 'Lists the evidence filed for your principal, oldest first, with counts by origin.',
  inputSchema: input({ ...pageInputs }),
  outputSchema: output(
    { counts: evidenceCounts, evidence: { type: 'array', items: evidenceItem }, ...pageOutputs },
    Object.keys(pageOutputs),
  ),
  annotations: { readOnlyHint: true, openWorldHint: false },
  words: { sends: [], serves: 'own' },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    const page = await readPage(ctx, args, {
      tool: 'list_evidence',
      args: {},
      fetch: (after, limit) => {
        const from = parseTimeKey(after);
        return ctx.store.pageEvidence(me.id, { limit, ...(from ? { after: from } : {}) });
      },
      keyOf: (e) => timeKey(e.createdAt, e.id),
      present: (e) => presentEvidence(e, ctx.wrapper),
    });
    return ok({ counts: await ctx.store.countEvidenceByOrigin(me.id), evidence: page.items, ...page.meta });
  },
};
