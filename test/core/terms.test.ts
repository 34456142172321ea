// The mandate's terms as a table: whether a consultation or a review fits what the principal
// allowed, with the stable code and the reason an agent is shown when it does not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultMandate, type Mandate } from '../../src/core/mandate.ts';
import { sameRequest } from '../../src/core/same-request.ts';
import {
  changedProfileParts,
  denialWindowStart,
  evaluateAnswerTerms,
  evaluateConsultTerms,
  evaluateEvidenceTerms,
  evaluateProfileTerms,
  evaluateReviewTerms,
  startOfUtcDay,
  type ProfileChange,
  type ProfilePart,
} from '../../src/core/terms.ts';

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

void describe('answer terms: by default, the people agents may consult', () => {
  const base = defaultMandate();
  const onlyDave = { ...base, consult: { counterparts: ['dave'], dailyLimit: 20 } };
  const rows: { case: string; m: Mandate; asker: string; code?: string; reason?: RegExp }[] = [
    { case: 'consult anyone: answer anyone', m: base, asker: 'mallory' },
    { case: 'consult only @dave: answer @dave', m: onlyDave, asker: 'dave' },
    {
      case: 'consult only @dave: an answer to @mallory waits',
      m: onlyDave,
      asker: 'mallory',
      code: 'answer_counterpart_not_in_mandate',
      reason: /lets you answer dave without asking first; mallory is not among them/,
    },
    {
      case: 'answer anyone though consult is narrowed',
      m: { ...onlyDave, answer: { counterparts: 'any' } },
      asker: 'mallory',
    },
    {
      case: 'an answer list of its own',
      m: { ...base, answer: { counterparts: ['bo'] } },
      asker: 'al',
      code: 'answer_counterpart_not_in_mandate',
      reason: /answer bo without asking/,
    },
    {
      case: 'an empty list names nobody',
      m: { ...base, answer: { counterparts: [] } },
      asker: 'al',
      code: 'answer_counterpart_not_in_mandate',
      reason: /answer nobody without asking/,
    },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      const v = evaluateAnswerTerms(row.m, row.asker);
      if (!row.code) return assert.deepEqual(v, { within: true });
      assert.equal(v.within, false);
      if (v.within) return;
      assert.equal(v.code, row.code);
      assert.match(v.reason, row.reason!);
    });
  }
});

void describe('profile terms: the inbox and the name wait by default', () => {
  const base = defaultMandate();
  const open = {
    ...base,
    profile: { inboxNeedsApproval: false, nameNeedsApproval: false, textNeedsApproval: false },
  };
  const strict = {
    ...base,
    profile: { inboxNeedsApproval: true, nameNeedsApproval: true, textNeedsApproval: true },
  };
  const rows: { case: string; m: Mandate; change: ProfileChange; parts: ProfilePart[]; reason?: RegExp }[] = [
    {
      case: 'closing the inbox waits',
      m: base,
      change: { accepts_questions: false },
      parts: ['accepts_questions'],
      reason: /closing their inbox to questions waits/,
    },
    {
      case: 'opening the inbox waits',
      m: base,
      change: { accepts_questions: true },
      parts: ['accepts_questions'],
      reason: /opening their inbox to questions waits/,
    },
    {
      case: 'a new display name waits',
      m: base,
      change: { display_name: 'Mallory’s puppet' },
      parts: ['display_name'],
      reason: /changing their display name waits/,
    },
    {
      case: 'a new headline and bio go through by default',
      m: base,
      change: { headline: 'h', bio: 'b' },
      parts: ['headline', 'bio'],
    },
    {
      case: 'headline and bio wait when the principal says so',
      m: strict,
      change: { headline: 'h', bio: 'b' },
      parts: ['headline', 'bio'],
      reason: /changing their headline and changing their bio waits/,
    },
    {
      case: 'one part that waits holds the whole change',
      m: base,
      change: { headline: 'h', display_name: 'X' },
      parts: ['display_name', 'headline'],
      reason: /display name/,
    },
    {
      case: 'nothing waits when the principal lets it all through',
      m: open,
      change: { accepts_questions: false, display_name: 'X' },
      parts: ['accepts_questions', 'display_name'],
    },
    {
      case: 'a field sent with its current value changes nothing',
      m: base,
      change: { accepts_questions: true },
      parts: [],
    },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      const v = evaluateProfileTerms(row.m, row.parts, row.change);
      if (!row.reason) return assert.deepEqual(v, { within: true });
      assert.equal(v.within, false);
      if (v.within) return;
      assert.equal(v.code, 'profile_change_needs_approval');
      assert.match(v.reason, row.reason);
    });
  }
  void it('changedProfileParts keeps only the fields sent that differ from what is stored', () => {
    const stored: Record<ProfilePart, unknown> = {
      accepts_questions: true,
      display_name: 'Alice',
      headline: 'h',
      bio: '',
    };
    const same = (change: ProfileChange) => (part: ProfilePart) => change[part] === stored[part];
    const c1: ProfileChange = { accepts_questions: true, display_name: 'Alice' };
    assert.deepEqual(changedProfileParts(c1, same(c1)), []);
    const c2: ProfileChange = { accepts_questions: false, display_name: 'Alice', bio: 'new' };
    assert.deepEqual(changedProfileParts(c2, same(c2)), ['accepts_questions', 'bio']);
  });
});

void describe('evidence terms: a self-report waits by default', () => {
  const base = defaultMandate();
  void it('a manual claim waits', () => {
    const v = evaluateEvidenceTerms(base, 'manual');
    assert.equal(v.within, false);
    if (!v.within) assert.equal(v.code, 'self_report_needs_approval');
  });
  void it('a claim from an artifact does not', () => {
    for (const origin of ['commit', 'document', 'calendar'])
      assert.deepEqual(evaluateEvidenceTerms(base, origin), { within: true });
  });
  void it('a manual claim goes through when the principal says so', () => {
    assert.deepEqual(evaluateEvidenceTerms({ ...base, selfReportsNeedApproval: false }, 'manual'), {
      within: true,
    });
  });
});

void describe('the denial window', () => {
  const now = new Date('2026-12-07T15:00:00.000Z');
  void it('reaches back the days the principal set', () => {
    assert.equal(denialWindowStart(defaultMandate(), now), '2026-11-07T15:00:00.000Z');
    assert.equal(
      denialWindowStart({ ...defaultMandate(), denialWindowDays: 1 }, now),
      '2026-12-06T15:00:00.000Z',
    );
  });
  void it('is none at 0 days', () => {
    assert.equal(denialWindowStart({ ...defaultMandate(), denialWindowDays: 0 }, now), null);
  });
});

void describe('the same request: same act, same counterpart', () => {
  const rows: { case: string; a: string; b: string; same: boolean }[] = [
    {
      case: 'asking the same member, other words',
      a: sameRequest.ask('mallory'),
      b: sameRequest.ask('mallory'),
      same: true,
    },
    { case: 'asking another member', a: sameRequest.ask('mallory'), b: sameRequest.ask('dave'), same: false },
    {
      case: 'answering the same asker',
      a: sameRequest.answer('mallory'),
      b: sameRequest.answer('mallory'),
      same: true,
    },
    {
      case: 'asking vs answering the same member',
      a: sameRequest.ask('mallory'),
      b: sameRequest.answer('mallory'),
      same: false,
    },
    {
      case: 'reviewing the same candidate',
      a: sameRequest.review('cand'),
      b: sameRequest.review('cand'),
      same: true,
    },
    {
      case: 'closing the inbox twice',
      a: sameRequest.profile(['accepts_questions'], false),
      b: sameRequest.profile(['accepts_questions'], false),
      same: true,
    },
    {
      case: 'closing vs opening the inbox',
      a: sameRequest.profile(['accepts_questions'], false),
      b: sameRequest.profile(['accepts_questions'], true),
      same: false,
    },
    {
      case: 'the same parts in another order',
      a: sameRequest.profile(['display_name', 'accepts_questions'], false),
      b: sameRequest.profile(['accepts_questions', 'display_name'], false),
      same: true,
    },
    {
      case: 'renaming vs renaming and closing the inbox',
      a: sameRequest.profile(['display_name'], false),
      b: sameRequest.profile(['accepts_questions', 'display_name'], false),
      same: false,
    },
    {
      case: 'the same self-report, case and spacing aside',
      a: sameRequest.selfReport('Alice  paid Mallory'),
      b: sameRequest.selfReport(' alice paid mallory\n'),
      same: true,
    },
    {
      case: 'another self-report',
      a: sameRequest.selfReport('Alice paid Mallory'),
      b: sameRequest.selfReport('Alice paid Dave'),
      same: false,
    },
  ];
  for (const row of rows) void it(row.case, () => assert.equal(row.a === row.b, row.same));
});
