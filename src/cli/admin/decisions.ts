import { decide, listDecisions, reissue } from '../../admin/decisions.ts';
import type { DecisionRecord } from '../../store/contract.ts';
import { forHumans as plain } from '../../untrusted/index.ts';
import { printJson } from '../common.ts';
import { UsageError } from '../io.ts';
import { positional, str, type AdminCommand } from './command.ts';

/** The attached request is shown as data, sanitised: it was written by an agent. */
function view(d: DecisionRecord) {
  return {
    id: d.id,
    tool: d.tool,
    request: plain(d.argumentsText),
    asked_by_token: d.tokenId,
    reason_code: d.reasonCode,
    reason: d.reason,
    status: d.status,
    note: d.note ? plain(d.note) : null,
    outcome: d.outcome,
    created_at: d.createdAt,
    decided_at: d.decidedAt,
  };
}

export const decisionCommands: Record<string, AdminCommand> = {
  list: {
    options: { status: { type: 'string' } },
    usage: 'list HANDLE [--status pending|approved|denied|stale]',
    summary: "the principal's decision queue: what their agents asked for outside the mandate",
    async run(deps, args, io) {
      const status = str(args.values, 'status');
      if (status !== undefined && !['pending', 'approved', 'denied', 'stale'].includes(status)) {
        throw new UsageError('--status is pending, approved, denied or stale');
      }
      const all = await listDecisions(deps, positional(args, 0, 'HANDLE'), status as 'pending' | undefined);
      if (args.values['json']) printJson(io, all.map(view));
      else if (all.length === 0) io.stdout('No decisions.\n');
      else {
        for (const d of all.map(view)) {
          io.stdout(`${d.id}  ${d.status.padEnd(9)} ${d.tool}  — ${d.reason}\n    request: ${d.request}\n`);
          if (d.note) io.stdout(`    note: ${d.note}\n`);
        }
      }
      return 0;
    },
  },
  decide: {
    options: {
      approve: { type: 'boolean' },
      deny: { type: 'boolean' },
      note: { type: 'string' },
      as: { type: 'string' },
    },
    usage: 'decide ID --approve|--deny --as HANDLE [--note TEXT]',
    summary: 'decide a queued request as its principal; approval executes the stored request',
    async run(deps, args, io) {
      const approve = args.values['approve'] === true;
      const deny = args.values['deny'] === true;
      if (approve === deny) throw new UsageError('give exactly one of --approve or --deny');
      const id = positional(args, 0, 'ID');
      const record = await deps.store.getDecision(id);
      const as =
        str(args.values, 'as') ??
        (record ? (await deps.store.getPrincipalById(record.principalId))?.handle : undefined);
      if (!as) throw new UsageError(`no decision has the id "${id}"`);
      const d = await decide(deps, as, id, approve ? 'approve' : 'deny', str(args.values, 'note') ?? null);
      if (args.values['json']) printJson(io, view(d));
      else {
        io.stdout(`${d.id} ${d.status}${d.note ? ` with the note "${plain(d.note)}"` : ''}.\n`);
        if (d.outcome) io.stdout(`  outcome: ${JSON.stringify(d.outcome)}\n`);
      }
      return 0;
    },
  },
  reissue: {
    options: {},
    usage: 'reissue ID',
    summary:
      'a stale decision (its authority lapsed before approval) done in person, as a new act of its principal',
    async run(deps, args, io) {
      const id = positional(args, 0, 'ID');
      const record = await deps.store.getDecision(id);
      const owner = record ? await deps.store.getPrincipalById(record.principalId) : null;
      if (!owner) throw new UsageError(`no decision has the id "${id}"`);
      const result = await reissue(deps, owner.handle, id);
      const shown =
        result.kind === 'ok'
          ? { ok: true }
          : result.kind === 'refused'
            ? { ok: false, refusal: result.refusal }
            : { ok: false, refusal: { code: 'not_found', reason: 'The tool is no longer available.' } };
      if (args.values['json']) printJson(io, { decision: id, reissued_as: owner.handle, ...shown });
      else io.stdout(`Re-issued ${id} in person as ${owner.handle}: ${JSON.stringify(shown)}\n`);
      return result.kind === 'ok' ? 0 : 1;
    },
  },
};
