// The decision queue over HTTP with a real agent: notes kept on a bad form, no double
// decisions, and a stale decision that approval does not run but the principal may
// do in person.
import assert from 'node:assert/strict';
import { CODES } from '../../src/console/glossary.ts';
import { after, before, describe, it } from 'node:test';
import { changeMandate } from '../../src/admin/mandate.ts';
import { setStatus } from '../../src/admin/principals.ts';
import { revokeToken } from '../../src/admin/tokens.ts';
import { ok } from '../helpers/club.ts';
import { startConsoleClub, Visitor, type ConsoleClub } from '../helpers/console.ts';

void describe('the decision queue at the console', () => {
  let club: ConsoleClub;
  let v: Visitor;
  let csrf: string;

  before(async () => {
    club = await startConsoleClub();
    for (const h of ['alice', 'bob', 'carol']) await club.add(h, 'member');
    // Each case queues a question to carol afresh after another was denied: alice keeps no
    // denial window here (denied stays denied is tested in test/threats/terms.test.ts).
    await changeMandate({ store: club.store, registry: club.registry }, 'alice', {
      consultCounterparts: 'bob',
      denialWindowDays: '0',
    });
    v = new Visitor(club.base);
    await v.signInWith(await club.link('alice'));
    csrf = await v.csrf();
  });
  after(() => club.close());

  const queue = async (question: string) => {
    const { token, tokenId } = await club.issue('alice');
    const agent = await club.connect(token);
    const q = await ok<{ decision_id: string }>(agent, 'ask_agent', { to: 'carol', question });
    return { id: q.decision_id, tokenId };
  };

  void it('a refused form keeps the note that was typed; a decision is taken once', async () => {
    const { id } = await queue('first');
    const long = 'n'.repeat(2001);
    const tooLong = await v.post('/console/decisions', { _csrf: csrf, id, verdict: 'deny', note: long });
    assert.equal(tooLong.status, 400);
    const page = await tooLong.text();
    assert.match(page, /at most 2000 characters; yours has 2001/);
    assert.ok(page.includes('n'.repeat(2000)), 'what fits is kept in the textarea');
    assert.equal((await club.store.getDecision(id))!.status, 'pending');
    const denied = await v.post('/console/decisions', { _csrf: csrf, id, verdict: 'deny', note: 'Not now.' });
    assert.equal(denied.headers.get('location'), '/console/decisions?done=denied');
    const again = await v.post('/console/decisions', { _csrf: csrf, id, verdict: 'approve', note: '' });
    assert.equal(again.status, 409);
    assert.match(await again.text(), /already_decided/);
    assert.equal((await club.store.getDecision(id))!.status, 'denied');
  });

  void it('a decision whose asking token was revoked is closed as stale, not run; the principal may do it in person', async () => {
    const questions = async () => (await club.store.listQuestions({})).length;
    const { id, tokenId } = await queue('second');
    await revokeToken(club.store, tokenId);
    const before = await questions();
    const approve = await v.post('/console/decisions', { _csrf: csrf, id, verdict: 'approve', note: '' });
    assert.equal(approve.status, 409);
    assert.match(await approve.text(), /stale/);
    assert.equal((await club.store.getDecision(id))!.status, 'stale');
    assert.equal(await questions(), before, 'approval ran nothing');
    assert.match(await (await v.get('/console/decisions')).text(), /Do it myself, now/);
    const ask = await v.post('/console/decisions/reissue', { _csrf: csrf, id });
    assert.equal(ask.status, 200);
    assert.match(await ask.text(), /Do this yourself, now/);
    assert.equal(await questions(), before, 'asking changes nothing');
    const done = await v.post('/console/decisions/reissue', { _csrf: csrf, id, confirm: 'yes' });
    assert.equal(done.headers.get('location'), '/console/decisions?done=reissued');
    assert.equal(await questions(), before + 1);
  });

  void it('says to the principal what came of each decision: their answer in words, a refusal at run time in the glossary’s', async () => {
    const { id } = await queue('third');
    // carol leaves before alice approves: the question is refused when it runs.
    await setStatus(club.store, 'carol', 'suspended');
    try {
      const approved = await v.post('/console/decisions', { _csrf: csrf, id, verdict: 'approve', note: '' });
      assert.equal(approved.headers.get('location'), '/console/decisions?done=approved');
      const d = (await club.store.getDecision(id))!;
      assert.equal(d.status, 'approved');
      assert.ok(d.outcome && !d.outcome.ok && d.outcome.refusal.code === 'not_found');
      const page = await (await v.get('/console/decisions')).text();
      // Decided, latest first: the first row after the table's head.
      const history = page.slice(page.indexOf('id="history"'));
      const row = [...history.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!)[1];
      assert.ok(row, 'the decided request is listed');
      assert.match(row, /You approved it, <time/);
      assert.match(row, /It was refused when it ran: /);
      assert.ok(row.includes(CODES.not_found!.said), 'the refusal in words for the member');
      assert.match(row, /<details class="technical">[\s\S]*<code>not_found<\/code>/);
      // What the agent was told stays the agent's.
      assert.ok(!row.includes(d.outcome.refusal.reason) && !row.includes('list_members'), row);
      // Every answer in words, none as a bare status.
      assert.match(page, /You denied it, <time/);
      assert.match(page, /Closed without running, <time/);
      assert.doesNotMatch(page, /data-label="Answer">\s*(?:approved|denied|stale)\b/);
    } finally {
      await setStatus(club.store, 'carol', 'member');
    }
  });
});
