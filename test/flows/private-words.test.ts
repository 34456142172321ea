import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decide, reasonForPrincipal } from '../../src/admin/decisions.ts';
import type { SqlStore } from '../../src/store/sql-store.ts';
import { ok, refused, spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';

type Queued = { status: string; decision_id: string; reason_code: string; reason: string; next: string };
type Client = Awaited<ReturnType<TestClub['connect']>>;

/** What @mallory writes privately to alice: 36 words. */
const MALLORY =
  'Between us: the board will announce on Friday that the Lisbon office closes in June, and I am the one who argued for it, so please do not mention my name to anyone yet.';
/** What @dave answers alice privately. */
const DAVE =
  'Honestly the grant committee already picked the two finalists last week and neither of them is from our chapter, but it will not be announced before the spring meeting.';

/** 12+ consecutive words of `text` from word `from`, shouted, with the agent's own words around them. */
function passage(text: string, from: number, n: number): string {
  const words = text.split(' ').slice(from, from + n);
  return `Quick one — I heard that ${words.join('  ').toUpperCase()}... is that right?`;
}

describe('private words do not travel', () => {
  let club: TestClub;
  let alice: Client;
  let mallory: Client;
  let dave: Client;
  let aliceId: string;
  let fromMallory: string;
  let fromDave: string;
  let consultation: string;
  const deps = () => ({ store: club.store, registry: club.registry });

  before(async () => {
    club = await startClub();
    alice = await club.connect((await club.addMember('alice')).token, 'modern');
    mallory = await club.connect((await club.addMember('mallory')).token);
    dave = await club.connect((await club.addMember('dave')).token);
    await club.addCandidate('carol');
    aliceId = (await club.store.getPrincipalByHandle('alice'))!.id;
    fromMallory = (
      await ok<{ consultation_id: string }>(mallory, 'ask_agent', { to: 'alice', question: MALLORY })
    ).consultation_id;
    fromDave = (
      await ok<{ consultation_id: string }>(dave, 'ask_agent', {
        to: 'alice',
        question: 'Will you come to the spring meeting of our chapter this year, do you think?',
      })
    ).consultation_id;
  });
  after(() => club.close());

  /** Calls `tool` as alice's agent, which must be queued for alice as private_words; proves the handler never ran. */
  async function queued(tool: string, args: Record<string, unknown>, author: string): Promise<Queued> {
    const spy = spyOnHandler(club.registry, tool);
    const q = await ok<Queued>(alice, tool, args);
    assert.equal(q.status, 'queued_for_principal');
    assert.equal(q.reason_code, 'private_words');
    assert.match(q.reason, new RegExp(`@${author} wrote privately to your principal`));
    assert.match(q.next, /list_decisions/);
    assert.equal(spy.calls, 0, `${tool}'s handler never ran`);
    const d = (await club.store.getDecision(q.decision_id))!;
    assert.equal(reasonForPrincipal(d), `Your agent is about to pass on words @${author} wrote to you.`);
    return q;
  }

  it('remembers fingerprints, not words, once the inbox is served to the agent', async () => {
    assert.equal(await club.store.countPrivateWords(aliceId), 0, 'nothing before it is served');
    await ok(alice, 'list_questions');
    assert.ok((await club.store.countPrivateWords(aliceId)) > 20);
    const rows = await (club.store as SqlStore).sql.all('SELECT * FROM private_words');
    const stored = JSON.stringify(rows).toLowerCase();
    for (const word of ['lisbon', 'board', 'friday', 'office']) assert.ok(!stored.includes(word), word);
  });

  it('threat: ask_agent: forwards a private question to a third member', async () => {
    const asked = (
      await club.store.listQuestions({ targetId: (await club.store.getPrincipalByHandle('dave'))!.id })
    ).length;
    await queued('ask_agent', { to: 'dave', question: passage(MALLORY, 3, 14) }, 'mallory');
    const daveId = (await club.store.getPrincipalByHandle('dave'))!.id;
    assert.equal(
      (await club.store.listQuestions({ targetId: daveId })).length,
      asked,
      'nothing reached dave',
    );
  });

  it('threat: answer_question: answers with private words of another member', async () => {
    await queued('answer_question', { question_id: fromDave, answer: passage(MALLORY, 10, 12) }, 'mallory');
    assert.equal((await club.store.getQuestion(fromDave))!.status, 'open', 'dave has no answer');
  });

  it('threat: review_candidate: puts private words in a review note', async () => {
    await queued('review_candidate', { handle: 'carol', verdict: 'oppose', note: MALLORY }, 'mallory');
    assert.equal((await club.store.listReviews({})).length, 0);
  });

  it('threat: file_evidence: files private words as a claim', async () => {
    await queued('file_evidence', { origin: 'manual', claim: passage(MALLORY, 20, 16) }, 'mallory');
    assert.equal((await club.store.listEvidence(aliceId)).length, 0);
  });

  it('threat: update_profile: publishes private words in the bio', async () => {
    await queued('update_profile', { headline: 'Hello', bio: `News. ${MALLORY}` }, 'mallory');
    const me = (await club.store.getPrincipalByHandle('alice'))!;
    assert.equal((await club.store.getPrincipalById(me.id))!.updatedAt, me.updatedAt, 'profile unchanged');
  });

  it('threat: ask_agent: forwards a private answer to a third member', async () => {
    consultation = (
      await ok<{ consultation_id: string }>(alice, 'ask_agent', {
        to: 'dave',
        question: 'What do you know about how the grant committee is choosing this year, if you can say?',
      })
    ).consultation_id;
    const [open] = (await ok<{ questions: { id: string }[] }>(dave, 'list_questions')).questions.filter(
      (q) => q.id === consultation,
    );
    assert.ok(open);
    await ok(dave, 'answer_question', { question_id: consultation, answer: DAVE });
    await ok(alice, 'get_consultation', { consultation_id: consultation });
    await queued('ask_agent', { to: 'mallory', question: passage(DAVE, 2, 13) }, 'dave');
  });

  it('an answer to a question put to someone else is refused as before, not queued', async () => {
    const r = await refused(alice, 'answer_question', { question_id: consultation, answer: MALLORY });
    assert.equal(r.code, 'not_your_question');
  });

  it("the author's own words may go back to them, and the principal's own words go anywhere", async () => {
    const answered = await ok<{ answered: { status: string } }>(alice, 'answer_question', {
      question_id: fromMallory,
      answer: `You wrote: "${MALLORY}" — understood, I will keep it to myself.`,
    });
    assert.equal(answered.answered.status, 'answered');
    const own = await ok<{ status: string }>(alice, 'ask_agent', {
      to: 'mallory',
      question: 'What do you know about how the grant committee is choosing this year, if you can say?',
    });
    assert.equal(own.status, 'asked');
  });

  it('public words (a profile) and a few common words travel', async () => {
    const bio =
      'I run the chapter reading group every second Tuesday and I am always looking for new people who like long novels.';
    await ok(mallory, 'update_profile', { bio });
    await ok(alice, 'get_profile', { handle: 'mallory' });
    for (const question of [
      `Mallory's profile says: ${bio} Would you join?`,
      'Between us, please do not mention my name to anyone yet: are you going on Friday?',
    ]) {
      const r = await ok<{ status: string }>(alice, 'ask_agent', { to: 'dave', question });
      assert.equal(r.status, 'asked', question);
    }
  });

  it('on approval the request runs as usual, under the principal’s approval', async () => {
    const q = await queued('ask_agent', { to: 'dave', question: passage(MALLORY, 0, 20) }, 'mallory');
    const daveId = (await club.store.getPrincipalByHandle('dave'))!.id;
    const before = (await club.store.listQuestions({ targetId: daveId })).length;
    const decided = await decide(deps(), 'alice', q.decision_id, 'approve', 'Fine, dave may know.');
    assert.equal(decided.status, 'approved');
    assert.equal(decided.outcome?.ok, true);
    assert.equal((await club.store.listQuestions({ targetId: daveId })).length, before + 1);
  });
});
