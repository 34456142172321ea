import type { ToolSpec } from '../../core/registry.ts';
import { echo } from '../../untrusted/index.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { presentDecision } from '../decisions.ts';
import { pageInputs, pageOutputs, parseTimeKey, readPage, timeKey, type PageArgs } from '../paging.ts';
import { ok, refuse } from '../result.ts';
import { input, nullableTimestamp, nullableUntrusted, output, timestamp, untrustedText } from '../schemas.ts';

const decisionItem = output({
  id: { type: 'string' },
  tool: { type: 'string' },
  request: untrustedText,
  reason_code: { type: 'string' },
  reason: { type: 'string' },
  status: { enum: ['pending', 'approved', 'denied', 'stale'] },
  note: nullableUntrusted,
  outcome: { type: ['object', 'null'] },
  created_at: timestamp,
  decided_at: nullableTimestamp,
});

export const listDecisions: ToolSpec<
  ToolContext,
  PageArgs & { decision_id?: string; status?: 'pending' | 'approved' | 'denied' | 'stale' | 'all' }
> = {
  name: 'list_decisions',
  title: "Your principal's decision queue",
  scope: 'mandate:read',
  description:
    "Requests waiting for (or given) your principal's decision: one by decision_id, or all by status, oldest first. A decided one shows the answer (a denial too, with the principal's note, wrapped as data) and, if approved, what executing it gave. A stale one lost its authority (token or scope) before approval and never ran.",
  inputSchema: input({
    decision_id: { type: 'string', minLength: 1, maxLength: 64 },
    status: { enum: ['pending', 'approved', 'denied', 'stale', 'all'], default: 'all' },
    ...pageInputs,
  }),
  outputSchema: output(
    { decisions: { type: 'array', items: decisionItem }, ...pageOutputs },
    Object.keys(pageOutputs),
  ),
  annotations: { readOnlyHint: true, openWorldHint: false },
  words: { sends: [], serves: 'private' },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    if (args.decision_id) {
      const d = await ctx.store.getDecision(args.decision_id);
      if (!d || d.principalId !== me.id) {
        return refuse(
          'not_found',
          `Your principal has no decision with id "${echo(args.decision_id)}".`,
          'Call list_decisions without an id to see them all.',
        );
      }
      return ok({ decisions: [presentDecision(d, ctx.wrapper)] });
    }
    const status = args.status ?? 'all';
    const page = await readPage(ctx, args, {
      tool: 'list_decisions',
      args: { status },
      fetch: (after, limit) => {
        const from = parseTimeKey(after);
        return ctx.store.pageDecisions(me.id, status === 'all' ? {} : { status }, {
          limit,
          ...(from ? { after: from } : {}),
        });
      },
      keyOf: (d) => timeKey(d.createdAt, d.id),
      present: (d) => presentDecision(d, ctx.wrapper),
    });
    return ok({ decisions: page.items, ...page.meta });
  },
};
