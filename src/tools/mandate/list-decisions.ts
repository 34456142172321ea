import type { ToolSpec } from '../../core/registry.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { presentDecision } from '../decisions.ts';
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
  { decision_id?: string; status?: 'pending' | 'approved' | 'denied' | 'stale' | 'all' }
> = {
  name: 'list_decisions',
  title: "Your principal's decision queue",
  scope: 'mandate:read',
  description:
    "Lists the requests waiting for (or already given) your principal's decision: one by decision_id, or all (filter by status). A decided request shows the answer — including a denial and the principal's note — and, when approved, the outcome of executing it. A request whose authority lapsed before it was approved (the asking token revoked or expired, or its scope no longer in the mandate) is closed as stale and never executed; its outcome says why. The note is your principal's own text, wrapped as data.",
  inputSchema: input({
    decision_id: { type: 'string', minLength: 1, maxLength: 64 },
    status: { enum: ['pending', 'approved', 'denied', 'stale', 'all'], default: 'all' },
  }),
  outputSchema: output({ decisions: { type: 'array', items: decisionItem } }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    if (args.decision_id) {
      const d = await ctx.store.getDecision(args.decision_id);
      if (!d || d.principalId !== me.id) {
        return refuse(
          'not_found',
          `Your principal has no decision with id "${args.decision_id}".`,
          'Call list_decisions without an id to see them all.',
        );
      }
      return ok({ decisions: [presentDecision(d, ctx.wrapper)] });
    }
    const status = args.status ?? 'all';
    const all = await ctx.store.listDecisions(me.id, status === 'all' ? {} : { status });
    return ok({ decisions: all.map((d) => presentDecision(d, ctx.wrapper)) });
  },
};
