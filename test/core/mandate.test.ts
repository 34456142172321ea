// A mandate as it is stored and read: normalised the same way every time, and never able to
// give an agent mandate:write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  answerCounterparts,
  defaultMandate,
  MAX_DENIAL_WINDOW_DAYS,
  normaliseMandate,
  type Mandate,
} from '../../src/core/mandate.ts';
import { AGENT_SCOPES, PRINCIPAL_ONLY_SCOPE } from '../../src/core/scopes.ts';

void describe('a new principal’s mandate', () => {
  void it('has every agent scope, any counterpart, 20 questions a day, and the safe terms', () => {
    assert.deepEqual(defaultMandate(), {
      scopes: [...AGENT_SCOPES],
      consult: { counterparts: 'any', dailyLimit: 20 },
      reviewsNeedApproval: true,
      // Answers go to whom agents may consult; the inbox, the name and self-reports wait.
      answer: { counterparts: 'consult' },
      profile: { inboxNeedsApproval: true, nameNeedsApproval: true, textNeedsApproval: false },
      selfReportsNeedApproval: true,
      denialWindowDays: 30,
    });
  });
  void it('is a fresh copy each time: changing one changes no other', () => {
    const a = defaultMandate();
    a.scopes.pop();
    assert.deepEqual(defaultMandate().scopes, [...AGENT_SCOPES]);
  });
});

void describe('normaliseMandate', () => {
  const base = defaultMandate();
  const rows: { case: string; in: Mandate; out: Mandate }[] = [
    { case: 'the default is already normal', in: base, out: base },
    {
      case: 'scopes in canonical order, duplicates dropped',
      in: { ...base, scopes: ['vouch', 'inbox', 'vouch', 'profile:write'] },
      out: { ...base, scopes: ['profile:write', 'inbox', 'vouch'] },
    },
    {
      case: 'mandate:write is removed, whoever put it there',
      in: { ...base, scopes: [PRINCIPAL_ONLY_SCOPE, 'inbox'] },
      out: { ...base, scopes: ['inbox'] },
    },
    {
      case: 'answer counterparts sorted and de-duplicated; consult and any kept',
      in: { ...base, answer: { counterparts: ['cy', 'al', 'cy'] } },
      out: { ...base, answer: { counterparts: ['al', 'cy'] } },
    },
    {
      case: 'a denial window beyond a year is a year; below zero is none',
      in: { ...base, denialWindowDays: 9999 },
      out: { ...base, denialWindowDays: MAX_DENIAL_WINDOW_DAYS },
    },
    {
      case: 'a negative denial window is none',
      in: { ...base, denialWindowDays: -3 },
      out: { ...base, denialWindowDays: 0 },
    },
    {
      case: 'counterparts sorted and de-duplicated',
      in: { ...base, consult: { counterparts: ['cy', 'al', 'cy', 'bo'], dailyLimit: 5 } },
      out: { ...base, consult: { counterparts: ['al', 'bo', 'cy'], dailyLimit: 5 } },
    },
    {
      case: '"any" and a null limit are kept as they are',
      in: { ...base, consult: { counterparts: 'any', dailyLimit: null }, reviewsNeedApproval: false },
      out: { ...base, consult: { counterparts: 'any', dailyLimit: null }, reviewsNeedApproval: false },
    },
    { case: 'no scopes stays none', in: { ...base, scopes: [] }, out: { ...base, scopes: [] } },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      assert.deepEqual(normaliseMandate(row.in), row.out);
      assert.deepEqual(
        normaliseMandate(normaliseMandate(row.in)),
        row.out,
        'normalising twice changes nothing',
      );
    });
  }
  void it('does not change the mandate it was given', () => {
    const given: Mandate = {
      ...base,
      scopes: ['vouch', 'inbox'],
      consult: { counterparts: ['b', 'a'], dailyLimit: 1 },
    };
    normaliseMandate(given);
    assert.deepEqual(given.scopes, ['vouch', 'inbox']);
    assert.deepEqual(given.consult.counterparts, ['b', 'a']);
  });
});

void describe('answerCounterparts: whom agents may answer without asking', () => {
  const base = defaultMandate();
  const rows: { case: string; m: Mandate; out: 'any' | string[] }[] = [
    { case: 'by default, whom they may consult: anyone', m: base, out: 'any' },
    {
      case: 'by default, whom they may consult: only @dave',
      m: { ...base, consult: { counterparts: ['dave'], dailyLimit: 20 } },
      out: ['dave'],
    },
    {
      case: 'anyone, though consult is narrowed',
      m: { ...base, consult: { counterparts: ['dave'], dailyLimit: 20 }, answer: { counterparts: 'any' } },
      out: 'any',
    },
    {
      case: 'a list of its own',
      m: { ...base, answer: { counterparts: ['al', 'bo'] } },
      out: ['al', 'bo'],
    },
  ];
  for (const row of rows) void it(row.case, () => assert.deepEqual(answerCounterparts(row.m), row.out));
});
