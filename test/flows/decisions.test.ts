import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { decide } from '../../src/admin/decisions.ts';
import { AdminRefusal } from '../../src/admin/errors.ts';
import { changeMandate } from '../../src/admin/mandate.ts';
import { ok, refused, startClub, unwrap, type TestClub } from '../helpers/club.ts';

type Queued = { status: string; decision_id: string; reason_code: string; reason: string; next: string };
type Decision = {
  id: string;
  status: string;
  tool: string;
  request: unknown;
  reason_code: string;
  note: unknown;
  outcome: Record<string, unknown> | null;
};

describe('refusal without a dead end: decisions', () => {
  let club: TestClub;
  let alice: Awaited<ReturnType<TestClub['connect']>>;
  let deps: { store: TestClub['store']; registry: TestClub['registry'] };
  before(async () => {
    club = await startClub();
    deps = { store: club.store, registry: club.registry };
    alice = await club.connect((await club.addMember('alice')).token, 'modern');
    await club.addMember('bob');
    await club.addMember('carol');
    await club.addCandidate('dan');
    await changeMandate(deps, 'alice', { consultCounterparts: 'bob', consultDaily: '2' });
  });
  after(() => club.close());

  const questions = async () => (await club.store.listQuestions({})).length;

  it('a counterpart outside the mandate queues a decision instead of failing; approval executes it', async () => {
    const before = await questions();
    const queued = await ok<Queued>(alice, 'ask_agent', {
      to: 'carol',
      question: 'Can we talk about the grant?',
    });
    assert.equal(queued.status, 'queued_for_principal');
    assert.equal(queued.reason_code, 'counterpart_not_in_mandate');
    assert.match(queued.reason, /carol is not among them/);
    assert.match(queued.next, /list_decisions/);
    assert.equal(await questions(), before, 'nothing was sent');

    const pending = await ok<{ decisions: Decision[] }>(alice, 'list_decisions', {
      decision_id: queued.decision_id,
    });
    assert.equal(pending.decisions[0]!.status, 'pending');
    assert.equal(pending.decisions[0]!.tool, 'ask_agent');
    assert.deepEqual(JSON.parse(unwrap(pending.decisions[0]!.request)), {
      to: 'carol',
      question: 'Can we talk about the grant?',
    });

    await decide(deps, 'alice', queued.decision_id, 'approve', 'Fine, once.');
    const approved = (
      await ok<{ decisions: Decision[] }>(alice, 'list_decisions', { decision_id: queued.decision_id })
    ).decisions[0]!;
    assert.equal(approved.status, 'approved');
    assert.equal(unwrap(approved.note), 'Fine, once.');
    assert.equal(approved.outcome?.['ok'], true);
    const consultationId = (approved.outcome?.['result'] as Record<string, string>)['consultation_id'];
    const q = await club.store.getQuestion(consultationId!);
    assert.equal(q?.targetHandle, 'carol', 'executed under the principal’s approval');
    assert.equal(await questions(), before + 1);
  });

  it('a denial and its note reach the agent; nothing is executed', async () => {
    const before = await questions();
    const queued = await ok<Queued>(alice, 'ask_agent', { to: 'carol', question: 'Again?' });
    await decide(deps, 'alice', queued.decision_id, 'deny', 'Not this week.');
    const denied = (
      await ok<{ decisions: Decision[] }>(alice, 'list_decisions', { decision_id: queued.decision_id })
    ).decisions[0]!;
    assert.equal(denied.status, 'denied');
    assert.equal(unwrap(denied.note), 'Not this week.');
    assert.equal(denied.outcome, null);
    assert.equal(await questions(), before);
  });

  it('the daily question limit queues the request past it', async () => {
    await changeMandate(deps, 'alice', { consultCounterparts: 'any', consultDaily: '3' });
    const asked = (await club.store.listQuestions({})).length; // 1 today so far
    assert.equal(asked, 1);
    await ok(alice, 'ask_agent', { to: 'bob', question: 'q2' });
    await ok(alice, 'ask_agent', { to: 'bob', question: 'q3' });
    const queued = await ok<Queued>(alice, 'ask_agent', { to: 'bob', question: 'q4' });
    assert.equal(queued.reason_code, 'daily_question_limit');
    assert.match(queued.reason, /allows 3 questions a day and 3 were asked today/);
  });

  it('refuses to decide twice, or to decide another principal’s decision', async () => {
    const queued = await ok<Queued>(alice, 'ask_agent', { to: 'bob', question: 'q5' });
    await assert.rejects(
      decide(deps, 'bob', queued.decision_id, 'approve', null),
      (e: unknown) => e instanceof AdminRefusal && e.code === 'not_your_decision',
    );
    await decide(deps, 'alice', queued.decision_id, 'deny', null);
    await assert.rejects(
      decide(deps, 'alice', queued.decision_id, 'approve', null),
      (e: unknown) => e instanceof AdminRefusal && e.code === 'already_decided',
    );
    const d = await club.store.getDecision(queued.decision_id);
    assert.equal(d?.status, 'denied', 'the first decision stands');
  });

  it('reviews need the principal’s approval by default; approval records the review', async () => {
    const queued = await ok<Queued>(alice, 'review_candidate', {
      handle: 'dan',
      verdict: 'support',
      note: 'Solid evidence.',
    });
    assert.equal(queued.reason_code, 'review_needs_approval');
    const dan = await club.store.getPrincipalByHandle('dan');
    assert.equal((await club.store.listReviews({ candidateId: dan!.id })).length, 0);
    await decide(deps, 'alice', queued.decision_id, 'approve', null);
    const reviews = await club.store.listReviews({ candidateId: dan!.id });
    assert.equal(reviews.length, 1);
    assert.equal(reviews[0]!.verdict, 'support');
    const listed = await ok<{ candidates: { handle: string; your_review: string | null }[] }>(
      alice,
      'list_candidates',
    );
    assert.equal(listed.candidates.find((c) => c.handle === 'dan')?.your_review, 'support');
    assert.equal(
      (
        await refused(alice, 'review_candidate', {
          handle: 'dan',
          verdict: 'oppose',
          note: 'changed my mind',
        })
      ).code,
      'conflict',
    );
  });

  it('without the approval term a review is recorded at once; only candidates can be reviewed', async () => {
    const bea = await club.connect((await club.addMember('bea')).token, 'legacy');
    await changeMandate(deps, 'bea', { reviewsNeedApproval: 'false' });
    const r = await ok<{ status: string; candidate: string }>(bea, 'review_candidate', {
      handle: 'dan',
      verdict: 'oppose',
      note: 'Too early.',
    });
    assert.equal(r.status, 'recorded');
    assert.equal(
      (await refused(bea, 'review_candidate', { handle: 'carol', verdict: 'support', note: 'x' })).code,
      'not_a_candidate',
    );
  });

  it('operators see the reviews with warden admin principal show', async () => {
    const io = bufferIo({ WARDEN_DB: join(club.dir, 'club.db') });
    assert.equal(await main(['admin', 'principal', 'show', 'dan', '--json'], io), 0);
    const shown = JSON.parse(io.out.join('')) as { reviews: { by: string; verdict: string; note: string }[] };
    assert.deepEqual(
      shown.reviews.map((r) => [r.by, r.verdict, r.note]),
      [
        ['alice', 'support', 'Solid evidence.'],
        ['bea', 'oppose', 'Too early.'],
      ],
    );
  });
});
