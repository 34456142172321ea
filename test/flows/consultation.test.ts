import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, refused, startClub, unwrap, type TestClub } from '../helpers/club.ts';

describe('consultation: ask, answer, read the answer', () => {
  let club: TestClub;
  let alice: Awaited<ReturnType<TestClub['connect']>>;
  let bob: Awaited<ReturnType<TestClub['connect']>>;
  let carol: Awaited<ReturnType<TestClub['connect']>>;
  before(async () => {
    club = await startClub();
    alice = await club.connect((await club.addMember('alice')).token, 'modern');
    bob = await club.connect((await club.addCandidate('bob')).token, 'legacy');
    carol = await club.connect((await club.addMember('carol')).token, 'legacy');
    // Carol lets her agents open and close her inbox without her (by default it waits: test/threats/).
    const c = (await club.store.getPrincipalByHandle('carol'))!;
    const m = await club.store.getMandate(c.id);
    await club.store.setMandate(c.id, { ...m, profile: { ...m.profile, inboxNeedsApproval: false } });
  });
  after(() => club.close());

  const questionCount = async () => (await club.store.listQuestions({})).length;

  it('round trip: alice asks candidate bob, bob answers, alice reads it, each attributed', async () => {
    const asked = await ok<{ status: string; consultation_id: string }>(alice, 'ask_agent', {
      to: 'bob',
      question: 'What did you ship last month?',
    });
    assert.equal(asked.status, 'asked');

    const inbox = await ok<{ questions: { id: string; from: string; question: { author: string } }[] }>(
      bob,
      'list_questions',
    );
    assert.equal(inbox.questions.length, 1);
    const q = inbox.questions[0]!;
    assert.equal(q.id, asked.consultation_id);
    assert.equal(q.from, 'alice');
    assert.equal(q.question.author, 'alice');
    assert.equal(unwrap(q.question), 'What did you ship last month?');

    await ok(bob, 'answer_question', { question_id: q.id, answer: 'The billing export.' });
    const read = await ok<{ consultations: { status: string; answer: { author: string } }[] }>(
      alice,
      'get_consultation',
      {
        consultation_id: asked.consultation_id,
      },
    );
    assert.equal(read.consultations[0]!.status, 'answered');
    assert.equal(read.consultations[0]!.answer.author, 'bob');
    assert.equal(unwrap(read.consultations[0]!.answer), 'The billing export.');
    assert.equal(
      (await ok<{ questions: unknown[] }>(bob, 'list_questions')).questions.length,
      0,
      'no longer open',
    );
    assert.equal(
      (await ok<{ questions: unknown[] }>(bob, 'list_questions', { status: 'answered' })).questions.length,
      1,
    );
  });

  it('refuses to ask someone who does not accept questions, and leaves no record', async () => {
    await ok(carol, 'update_profile', { accepts_questions: false });
    const before = await questionCount();
    const r = await refused(alice, 'ask_agent', { to: 'carol', question: 'hello?' });
    assert.equal(r.code, 'not_accepting_questions');
    assert.match(r.reason, /carol does not accept questions/);
    assert.equal(await questionCount(), before);
    await ok(carol, 'update_profile', { accepts_questions: true });
  });

  it('refuses to ask oneself or a stranger', async () => {
    assert.equal((await refused(alice, 'ask_agent', { to: 'alice', question: 'me?' })).code, 'self_target');
    assert.equal((await refused(alice, 'ask_agent', { to: 'nobody', question: 'you?' })).code, 'not_found');
  });

  it('refuses to answer a question put to someone else, and to answer twice', async () => {
    const { consultation_id: id } = await ok<{ consultation_id: string }>(alice, 'ask_agent', {
      to: 'bob',
      question: 'And before that?',
    });
    const stolen = await refused(carol, 'answer_question', { question_id: id, answer: 'I answer for bob' });
    assert.equal(stolen.code, 'not_your_question');
    assert.equal((await club.store.getQuestion(id))!.status, 'open', 'nothing changed');

    await ok(bob, 'answer_question', { question_id: id, answer: 'A search index.' });
    const twice = await refused(bob, 'answer_question', {
      question_id: id,
      answer: 'Actually, something else.',
    });
    assert.equal(twice.code, 'already_answered');
    const kept = await ok<{ consultations: { answer: unknown }[] }>(alice, 'get_consultation', {
      consultation_id: id,
    });
    assert.equal(unwrap(kept.consultations[0]!.answer), 'A search index.', 'the first answer stands');
    assert.equal(
      (await refused(bob, 'answer_question', { question_id: 'q_0000', answer: 'x' })).code,
      'not_found',
    );
  });

  it('shows a consultation only to the principal who asked', async () => {
    const { consultation_id: id } = await ok<{ consultation_id: string }>(alice, 'ask_agent', {
      to: 'carol',
      question: 'Private?',
    });
    assert.equal((await refused(carol, 'get_consultation', { consultation_id: id })).code, 'not_found');
  });
});
