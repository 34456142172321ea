import { changeMandate, showMandate } from '../../admin/mandate.ts';
import type { Mandate } from '../../core/mandate.ts';
import { printJson } from '../common.ts';
import type { CliIo } from '../io.ts';
import { positional, str, type AdminCommand } from './command.ts';

function print(io: CliIo, handle: string, m: Mandate, json: boolean): void {
  const view = {
    handle,
    scopes: m.scopes,
    consult_counterparts: m.consult.counterparts,
    consult_daily_limit: m.consult.dailyLimit,
    reviews_need_approval: m.reviewsNeedApproval,
  };
  if (json) return printJson(io, view);
  io.stdout(
    [
      `Mandate of ${handle}:`,
      `  scopes: ${m.scopes.join(', ') || '(none)'}`,
      `  consult counterparts: ${m.consult.counterparts === 'any' ? 'any' : m.consult.counterparts.join(', ') || '(none)'}`,
      `  questions per day: ${m.consult.dailyLimit ?? 'unlimited'}`,
      `  reviews need approval: ${m.reviewsNeedApproval ? 'yes' : 'no'}`,
      '',
    ].join('\n'),
  );
}

export const mandateCommands: Record<string, AdminCommand> = {
  show: {
    options: {},
    usage: 'show HANDLE',
    summary: "a principal's mandate: scopes agents may use, consult terms, review approval",
    async run(deps, args, io) {
      const handle = positional(args, 0, 'HANDLE');
      print(io, handle, await showMandate(deps, handle), Boolean(args.values['json']));
      return 0;
    },
  },
  set: {
    options: {
      scopes: { type: 'string' },
      'consult-counterparts': { type: 'string' },
      'consult-daily': { type: 'string' },
      'reviews-need-approval': { type: 'string' },
    },
    usage:
      'set HANDLE [--scopes a,b] [--consult-counterparts any|h1,h2] [--consult-daily N|unlimited] [--reviews-need-approval true|false]',
    summary:
      'change the mandate, as the principal (never through an agent): in force from every token’s next request',
    async run(deps, args, io) {
      const handle = positional(args, 0, 'HANDLE');
      const v = args.values;
      const scopes = str(v, 'scopes');
      const counterparts = str(v, 'consult-counterparts');
      const daily = str(v, 'consult-daily');
      const reviews = str(v, 'reviews-need-approval');
      const m = await changeMandate(deps, handle, {
        ...(scopes !== undefined ? { scopes } : {}),
        ...(counterparts !== undefined ? { consultCounterparts: counterparts } : {}),
        ...(daily !== undefined ? { consultDaily: daily } : {}),
        ...(reviews !== undefined ? { reviewsNeedApproval: reviews } : {}),
      });
      print(io, handle, m, Boolean(v['json']));
      if (!v['json']) io.stdout('In force for every token of this principal from its next request.\n');
      return 0;
    },
  },
};
