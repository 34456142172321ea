// The mandate's terms as a table: whether a consultation or a review fits what the principal
// allowed, with the stable code and the reason an agent is shown when it does not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultMandate, type Mandate } from '../../src/core/mandate.ts';
import { evaluateConsultTerms, evaluateReviewTerms, startOfUtcDay } from '../../src/core/terms.ts';

function mandate(consult: Mandate['consult'], reviewsNeedApproval = true): Mandate {
  return { ...defaultMandate(), consult, reviewsNeedApproval };
}

void describe('consult terms: counterparts first, then the daily limit', () => {
  const rows: {
    case: string;
    consult: Mandate['consult'];
    target: string;
    askedToday: number;
    code?: string;
    reason?: RegExp;
  }[] = [
    {
      case: 'any counterpart, no limit',
      consult: { counterparts: 'any', dailyLimit: null },
      target: 'bo',
      askedToday: 999,
    },
    {
      case: 'a listed counterpart under the limit',
      consult: { counterparts: ['al', 'bo'], dailyLimit: 3 },
      target: 'bo',
      askedToday: 2,
    },
    {
      case: 'an unlisted counterpart',
      consult: { counterparts: ['al'], dailyLimit: null },
      target: 'bo',
      askedToday: 0,
      code: 'counterpart_not_in_mandate',
      reason: /consult al without asking first; bo is not among them/,
    },
    {
      case: 'an empty list names nobody',
      consult: { counterparts: [], dailyLimit: null },
      target: 'bo',
      askedToday: 0,
      code: 'counterpart_not_in_mandate',
      reason: /consult nobody without asking first/,
    },
    {
      case: 'the limit reached',
      consult: { counterparts: 'any', dailyLimit: 3 },
      target: 'bo',
      askedToday: 3,
      code: 'daily_question_limit',
      reason: /allows 3 questions a day and 3 were asked today \(UTC\)/,
    },
    {
      case: 'the limit passed, in the singular',
      consult: { counterparts: 'any', dailyLimit: 1 },
      target: 'bo',
      askedToday: 1,
      code: 'daily_question_limit',
      reason: /allows 1 question a day and 1 was asked today/,
    },
    {
      case: 'a zero limit refuses the first question',
      consult: { counterparts: 'any', dailyLimit: 0 },
      target: 'bo',
      askedToday: 0,
      code: 'daily_question_limit',
    },
    {
      case: 'an unlisted counterpart is named before the limit',
      consult: { counterparts: ['al'], dailyLimit: 0 },
      target: 'bo',
      askedToday: 5,
      code: 'counterpart_not_in_mandate',
    },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      const verdict = evaluateConsultTerms(mandate(row.consult), row.target, row.askedToday);
      if (!row.code) return assert.deepEqual(verdict, { within: true });
      assert.equal(verdict.within, false);
      if (verdict.within) return;
      assert.equal(verdict.code, row.code);
      if (row.reason) assert.match(verdict.reason, row.reason);
    });
  }
});

void describe('review terms', () => {
  const rows = [
    { case: 'reviews go out without approval', needsApproval: false, code: undefined },
    { case: 'reviews wait for the principal', needsApproval: true, code: 'review_needs_approval' },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      const verdict = evaluateReviewTerms(
        mandate({ counterparts: 'any', dailyLimit: null }, row.needsApproval),
      );
      assert.equal(verdict.within ? undefined : verdict.code, row.code);
    });
  }
});

void describe('the daily window starts at midnight UTC', () => {
  const rows = [
    { now: '2026-03-04T00:00:00.000Z', start: '2026-03-04T00:00:00.000Z' },
    { now: '2026-03-04T23:59:59.999Z', start: '2026-03-04T00:00:00.000Z' },
    { now: '2026-03-04T10:30:00+05:00', start: '2026-03-04T00:00:00.000Z' },
    { now: '2026-03-04T22:00:00-05:00', start: '2026-03-05T00:00:00.000Z' },
    { now: '2024-02-29T12:00:00Z', start: '2024-02-29T00:00:00.000Z' },
  ];
  for (const row of rows) {
    void it(`${row.now} → ${row.start}`, () => assert.equal(startOfUtcDay(new Date(row.now)), row.start));
  }
});
