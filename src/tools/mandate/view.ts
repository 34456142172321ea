import type { JsonObject } from '../../core/json.ts';
import type { Mandate } from '../../core/mandate.ts';

const strings = { type: 'array', items: { type: 'string' } };

/** The mandate's terms as get_mandate and set_mandate give them, and the schema of that shape. */
export const mandateTermsSchema = {
  consult_counterparts: { anyOf: [{ const: 'any' }, strings] },
  consult_daily_limit: { type: ['integer', 'null'] },
  reviews_need_approval: { type: 'boolean' },
  answer_counterparts: { anyOf: [{ enum: ['any', 'consult'] }, strings] },
  inbox_changes_need_approval: { type: 'boolean' },
  name_changes_need_approval: { type: 'boolean' },
  profile_text_needs_approval: { type: 'boolean' },
  self_reports_need_approval: { type: 'boolean' },
  denial_window_days: { type: 'integer' },
} as const;

/** One mandate's terms, named as the tools' arguments name them. */
export function mandateTerms(m: Mandate): JsonObject {
  return {
    consult_counterparts: m.consult.counterparts,
    consult_daily_limit: m.consult.dailyLimit,
    reviews_need_approval: m.reviewsNeedApproval,
    answer_counterparts: m.answer.counterparts,
    inbox_changes_need_approval: m.profile.inboxNeedsApproval,
    name_changes_need_approval: m.profile.nameNeedsApproval,
    profile_text_needs_approval: m.profile.textNeedsApproval,
    self_reports_need_approval: m.selfReportsNeedApproval,
    denial_window_days: m.denialWindowDays,
  };
}
