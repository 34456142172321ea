import { changeMandate, showMandate } from '../../admin/mandate.ts';
import type { MandateChange } from '../../admin/mandate.ts';
import type { Mandate } from '../../core/mandate.ts';
import { mandateTerms } from '../../tools/mandate/view.ts';
import { printJson } from '../common.ts';
import type { CliIo } from '../io.ts';
import { positional, str, type AdminCommand } from './command.ts';

const yes = (b: boolean): string => (b ? 'yes' : 'no');

function print(io: CliIo, handle: string, m: Mandate, json: boolean): void {
  if (json) return printJson(io, { handle, scopes: m.scopes, ...mandateTerms(m) });
  const answer = m.answer.counterparts;
  io.stdout(
    [
      `Mandate of ${handle}:`,
      `  scopes: ${m.scopes.join(', ') || '(none)'}`,
      `  consult counterparts: ${m.consult.counterparts === 'any' ? 'any' : m.consult.counterparts.join(', ') || '(none)'}`,
      `  questions per day: ${m.consult.dailyLimit ?? 'unlimited'}`,
      `  reviews need approval: ${yes(m.reviewsNeedApproval)}`,
      `  answer counterparts: ${answer === 'consult' ? 'the consult counterparts' : answer === 'any' ? 'any' : answer.join(', ') || '(none)'}`,
      `  opening or closing the inbox needs approval: ${yes(m.profile.inboxNeedsApproval)}`,
      `  a new display name needs approval: ${yes(m.profile.nameNeedsApproval)}`,
      `  a new headline or bio needs approval: ${yes(m.profile.textNeedsApproval)}`,
      `  self-reported evidence needs approval: ${yes(m.selfReportsNeedApproval)}`,
      `  a denial holds for: ${m.denialWindowDays} day${m.denialWindowDays === 1 ? '' : 's'}`,
      '',
    ].join('\n'),
  );
}

/** Each option of `mandate set` and the field of the change it fills. */
const SET_OPTIONS = {
  scopes: 'scopes',
  'consult-counterparts': 'consultCounterparts',
  'consult-daily': 'consultDaily',
  'reviews-need-approval': 'reviewsNeedApproval',
  'answer-counterparts': 'answerCounterparts',
  'inbox-needs-approval': 'inboxNeedsApproval',
  'name-needs-approval': 'nameNeedsApproval',
  'profile-text-needs-approval': 'profileTextNeedsApproval',
  'self-reports-need-approval': 'selfReportsNeedApproval',
  'denial-window-days': 'denialWindowDays',
} as const satisfies Record<string, keyof MandateChange>;

export const mandateCommands: Record<string, AdminCommand> = {
  show: {
    options: {},
    usage: 'show HANDLE',
    summary:
      "a principal's mandate: scopes agents may use, whom they consult and answer, what waits for the principal",
    async run(deps, args, io) {
      const handle = positional(args, 0, 'HANDLE');
      print(io, handle, await showMandate(deps, handle), Boolean(args.values['json']));
      return 0;
    },
  },
  set: {
    options: Object.fromEntries(Object.keys(SET_OPTIONS).map((o) => [o, { type: 'string' as const }])),
    usage:
      'set HANDLE [--scopes a,b] [--consult-counterparts any|h1,h2] [--consult-daily N|unlimited] [--reviews-need-approval true|false] [--answer-counterparts consult|any|h1,h2] [--inbox-needs-approval true|false] [--name-needs-approval true|false] [--profile-text-needs-approval true|false] [--self-reports-need-approval true|false] [--denial-window-days N]',
    summary:
      'change the mandate, as the principal (never through an agent): in force from every token’s next request',
    async run(deps, args, io) {
      const handle = positional(args, 0, 'HANDLE');
      const v = args.values;
      const change: MandateChange = {};
      for (const [option, field] of Object.entries(SET_OPTIONS)) {
        const value = str(v, option);
        if (value !== undefined) change[field] = value;
      }
      const m = await changeMandate(deps, handle, change);
      print(io, handle, m, Boolean(v['json']));
      if (!v['json']) io.stdout('In force for every token of this principal from its next request.\n');
      return 0;
    },
  },
};
