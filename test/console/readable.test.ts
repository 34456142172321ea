// The console written for the person who reads it: dates in their terms, reasons
// addressed to the principal (while the agent keeps reading its own), every scope with
// what it lets an agent do, a queued request as labelled fields that stay member text,
// revoked and expired tokens apart from the live ones, and an OAuth connection named by
// its client's name, marked unverified.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reasonForPrincipal, staleForPrincipal } from '../../src/admin/decisions.ts';
import { changeMandate } from '../../src/admin/mandate.ts';
import { revokeToken } from '../../src/admin/tokens.ts';
import { scopeWords } from '../../src/console/glossary.ts';
import { SCOPES } from '../../src/core/scopes.ts';
import type { StaleCode } from '../../src/core/policy/index.ts';
import { defaultMandate } from '../../src/core/mandate.ts';
import {
  evaluateAnswerTerms,
  evaluateConsultTerms,
  evaluateEvidenceTerms,
  evaluateProfileTerms,
  evaluateReviewTerms,
} from '../../src/core/terms.ts';
import { isoText, relativeText, utcText, when } from '../../src/console/dates.ts';
import { serialize } from '../../src/console/html.ts';
import { scopeCheck, scopeSentence } from '../../src/console/layout.ts';
import { fieldsOf, forHumans, memberText } from '../../src/untrusted/index.ts';
import { ok } from '../helpers/club.ts';
import { startConsoleClub, Visitor, type ConsoleClub } from '../helpers/console.ts';

const NOW = new Date('2026-03-12T14:05:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const H = 3_600_000;
const D = 24 * H;

void describe('dates for a person', () => {
  void it('say the moment in UTC, naming the zone', () => {
    assert.equal(utcText(new Date('2026-03-12T04:05:59Z')), '12 Mar 2026, 04:05 UTC');
    assert.equal(utcText(new Date('2025-12-31T23:59:00Z')), '31 Dec 2025, 23:59 UTC');
  });

  void it('say the UTC moment as Intl and toISOString would, put together from the date’s fields', () => {
    const intl = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    let seed = 7;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed / 2 ** 31);
    const dates = [
      ...Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(2026, m, 9, 7, 3))),
      ...Array.from({ length: 2_000 }, () => new Date(Date.UTC(1000, 0, 1) + next() * 2.8e14)),
      // Another era, another width: through Intl itself.
      new Date('0099-01-01T00:00:00Z'),
      new Date('+012345-06-01T00:00:00Z'),
    ];
    for (const d of dates) {
      assert.equal(utcText(d), `${intl.format(d)} UTC`, d.toISOString());
      assert.equal(isoText(d), d.toISOString());
    }
    assert.equal(utcText(new Date('2026-09-03T04:05:00Z')), '3 Sept 2026, 04:05 UTC');
  });

  void it('say how long ago, in the largest unit that reads naturally', () => {
    const cases: [number, string][] = [
      [10_000, 'just now'],
      [-10_000, 'just now'],
      [90_000, '2 minutes ago'],
      [3 * H, '3 hours ago'],
      [30 * H, 'yesterday'],
      [3 * D, '3 days ago'],
      [-29 * D, 'in 29 days'],
      [-D, 'tomorrow'],
      [60 * D, '2 months ago'],
      [400 * D, 'last year'],
    ];
    // Twice each: the second from what the first said.
    for (const [ms, text] of [...cases, ...cases]) assert.equal(relativeText(ago(ms), NOW), text, `${ms} ms`);
  });

  void it('as a <time> element the browser can put in its own zone, or a word when there is none', () => {
    const t = serialize(when('2026-03-12T11:05:00.000Z', NOW));
    assert.match(t, /<time datetime="2026-03-12T11:05:00.000Z">/);
    assert.match(t, /12 Mar 2026, 11:05 UTC<\/time>/);
    assert.match(t, /\(3 hours ago\)/);
    assert.equal(serialize(when(null, NOW)), 'never');
    assert.equal(serialize(when(null, NOW, '—')), '—');
    assert.equal(serialize(when('<not a date>', NOW)), '&lt;not a date&gt;');
  });
});

void describe('scopes described for a person', () => {
  void it('every scope has one plain sentence, and nothing else does', () => {
    for (const s of SCOPES) assert.ok(scopeSentence(s).length > 20 && scopeWords(s) !== null, s);
    assert.equal(scopeWords('admin:everything'), null);
    assert.equal(scopeWords('toString'), null);
  });

  void it('a scope offered as a checkbox carries its description in its label', () => {
    const box = serialize(scopeCheck('consult', true));
    assert.ok(box.includes('<strong>Ask members</strong> <code class="scope">consult</code>'));
    assert.ok(box.includes(scopeSentence('consult').replaceAll("'", '&#39;')));
    assert.ok(box.includes('acts in your name'), 'a permission that acts in the member’s name is marked');
  });
});

void describe('reasons written to the principal', () => {
  const record = (reasonCode: string, reason: string, args: Record<string, unknown> = {}) => ({
    reasonCode,
    reason,
    arguments: args,
  });

  void it('from the very reasons the terms give the agent', () => {
    const m = defaultMandate();
    const only = { ...m, consult: { counterparts: ['bob', 'dave'], dailyLimit: 3 } };
    const nobody = { ...m, consult: { counterparts: [], dailyLimit: null } };
    const cases: [ReturnType<typeof record>, RegExp][] = [
      [
        record('counterpart_not_in_mandate', verdictReason(evaluateConsultTerms(only, 'carol', 0)), {
          to: 'carol',
        }),
        /^Your mandate lets your agents consult only @bob, @dave without asking you first; @carol is not among them\.$/,
      ],
      [
        record('counterpart_not_in_mandate', verdictReason(evaluateConsultTerms(nobody, 'carol', 0)), {
          to: 'carol',
        }),
        /^Your mandate lets your agents consult nobody without asking you first, and this asks to consult @carol\.$/,
      ],
      [
        record(
          'daily_question_limit',
          verdictReason(
            evaluateConsultTerms({ ...only, consult: { counterparts: 'any', dailyLimit: 1 } }, 'carol', 1),
          ),
        ),
        /^Your mandate allows your agents 1 question a day without asking you, and 1 was asked today \(UTC\)\.$/,
      ],
      [
        record(
          'daily_question_limit',
          verdictReason(
            evaluateConsultTerms({ ...only, consult: { counterparts: 'any', dailyLimit: 3 } }, 'carol', 3),
          ),
        ),
        /^Your mandate allows your agents 3 questions a day without asking you, and 3 were asked today \(UTC\)\.$/,
      ],
      [
        record('review_needs_approval', verdictReason(evaluateReviewTerms(m))),
        /^Your mandate says your agents' reviews/,
      ],
      [
        record('answer_counterpart_not_in_mandate', verdictReason(evaluateAnswerTerms(only, 'mallory'))),
        /^Your mandate lets your agents answer only @bob, @dave without asking you first; @mallory is not among them\.$/,
      ],
      [
        record('answer_counterpart_not_in_mandate', verdictReason(evaluateAnswerTerms(nobody, 'mallory'))),
        /^Your mandate lets your agents answer nobody without asking you first, and this answers @mallory\.$/,
      ],
      [
        record(
          'profile_change_needs_approval',
          verdictReason(
            evaluateProfileTerms(m, ['accepts_questions', 'display_name'], { accepts_questions: false }),
          ),
        ),
        /^Your mandate says closing your inbox to questions and changing your display name waits for you\.$/,
      ],
      [
        record('self_report_needs_approval', verdictReason(evaluateEvidenceTerms(m, 'manual'))),
        /^Your mandate says evidence your agents report on your word alone/,
      ],
    ];
    for (const [d, expected] of cases) {
      const text = reasonForPrincipal(d);
      assert.match(text, expected);
      assert.doesNotMatch(text, /your principal|\byou consult\b/i, 'not addressed to the agent');
    }
  });

  void it('a reason of another shape still says something true; an unknown code keeps the stored reason', () => {
    assert.equal(
      reasonForPrincipal(record('counterpart_not_in_mandate', 'reworded', { to: 'carol' })),
      'Your mandate does not let your agents consult @carol without asking you first.',
    );
    assert.match(reasonForPrincipal(record('daily_question_limit', 'reworded')), /as many questions today/);
    assert.equal(reasonForPrincipal(record('something_new', 'As stored.')), 'As stored.');
  });

  void it('every way a decision goes stale has words for the principal', () => {
    const codes: StaleCode[] = ['token_revoked', 'token_expired', 'tool_gone', 'scope_lapsed'];
    for (const c of codes) assert.ok(staleForPrincipal(`stale_${c}`), c);
    assert.equal(staleForPrincipal('not_found'), null);
  });
});

function verdictReason(v: { within: boolean; reason?: string }): string {
  assert.equal(v.within, false);
  return v.reason!;
}

void describe('a request as labelled fields', () => {
  void it('each value stays member text of the same author; what is not an object is not split', () => {
    const fields = fieldsOf(
      memberText(JSON.stringify({ to: 'carol', question: 'Lunch?\u202E', n: 3 }), 'alice'),
    )!;
    assert.deepEqual(
      fields.map((f) => [f.name, forHumans(f.value)]),
      [
        ['to', 'carol'],
        ['question', 'Lunch?[U+202E]'],
        ['n', '3'],
      ],
    );
    assert.throws(() => `${fields[0]!.value as unknown as string}`, /Raw member text/);
    assert.equal(fieldsOf(memberText('[1, 2]', 'alice')), null);
    assert.equal(fieldsOf(memberText('not json', 'alice')), null);
  });
});

void describe('the decisions and tokens pages, read by the principal', () => {
  let club: ConsoleClub;
  let v: Visitor;

  before(async () => {
    club = await startConsoleClub();
    for (const h of ['alice', 'bob', 'carol']) await club.add(h, 'member');
    await changeMandate({ store: club.store, registry: club.registry }, 'alice', {
      consultCounterparts: 'bob',
    });
    v = new Visitor(club.base);
    await v.signInWith(await club.link('alice'));
  });
  after(() => club.close());

  void it('a queued request: the reason to the principal, the request as fields, the agent still told its own', async () => {
    const { token } = await club.issue('alice', undefined, 'laptop');
    const agent = await club.connect(token);
    const q = await ok<{ decision_id: string; reason: string }>(agent, 'ask_agent', {
      to: 'carol',
      question: 'Lunch on <b>Friday</b>?',
    });
    assert.match(
      q.reason,
      /^Your principal's mandate lets you consult bob/,
      'the agent reads the reason written to it',
    );
    const page = await (await v.get('/console/decisions')).text();
    assert.ok(
      page.includes(
        'Your mandate lets your agents consult only @bob without asking you first; @carol is not among them.',
      ),
    );
    assert.doesNotMatch(page, /Your principal/);
    assert.match(page, /<dt>To<\/dt>\s*<dd class="member-text">carol<\/dd>/);
    assert.match(
      page,
      /<dt>Question<\/dt>\s*<dd class="member-text">Lunch on &lt;b&gt;Friday&lt;\/b&gt;\?<\/dd>/,
    );
    assert.match(
      page,
      /<time datetime="[^"]+">\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC<\/time>\s*<span class="ago">\(just now\)<\/span>/,
    );
    assert.doesNotMatch(page, /\{&quot;to&quot;/, 'no raw JSON');
    const listed = await ok<{ decisions: { reason: string }[] }>(agent, 'list_decisions', {
      decision_id: q.decision_id,
    });
    assert.equal(listed.decisions[0]!.reason, q.reason, 'list_decisions is unchanged');
  });

  void it('tokens: live ones apart from revoked and expired ones; scopes described; a connection named by its client, unverified', async () => {
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    const { tokenId } = await club.issue('alice', undefined, 'old laptop');
    await revokeToken(club.store, tokenId, new Date());
    await club.store.insertToken({
      principalId: alice.id,
      label: 'lapsed phone',
      hash: 'e'.repeat(64),
      scopes: ['inbox'],
      expiresAt: new Date(Date.now() - H).toISOString(),
    });
    await club.store.insertToken({
      principalId: alice.id,
      label: 'Club Desk',
      hash: 'f'.repeat(64),
      scopes: ['inbox'],
      expiresAt: null,
      origin: 'oauth',
      clientId: 'client-id-7f3a',
    });
    const page = await (await v.get('/console/tokens')).text();
    const [live, rest] = page.split('<section aria-labelledby="ended">');
    assert.ok(rest, 'a section of its own for tokens that ended');
    assert.match(live!, /laptop/);
    assert.doesNotMatch(live!, /old laptop|lapsed phone/);
    assert.match(rest!, /Revoked and expired: 2/);
    assert.match(rest!, /old laptop<\/span> <span class="tag bad">revoked<\/span>/);
    assert.match(rest!, /lapsed phone<\/span> <span class="tag bad">expired<\/span>/);
    assert.doesNotMatch(rest!, /Revoke…/, 'nothing to revoke among them');
    assert.match(live!, /Club Desk<\/span> <span class="tag">name unverified<\/span>/);
    assert.match(live!, /the club\s+has\s+not\s+checked\s+it\.\s+Client id <code>client-id-7f3a<\/code>/);
    for (const s of ['profile:write', 'consult', 'vouch'] as const) {
      assert.ok(page.includes(scopeSentence(s).replaceAll("'", '&#39;')), `${s} described`);
    }
  });

  void it('the mandate page describes each scope it offers from the same table', async () => {
    const page = await (await v.get('/console/mandate')).text();
    for (const s of [
      'profile:write',
      'evidence:write',
      'inbox',
      'mandate:read',
      'consult',
      'vouch',
    ] as const) {
      assert.ok(page.includes(scopeSentence(s).replaceAll("'", '&#39;')), s);
    }
  });
});
