import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMemberText, FUTURE, PAST, useStore, type Backend } from './backend.ts';

export function evidenceAndQuestionContract(backend: Backend): void {
  void describe('evidence and questions', () => {
    const store = useStore(backend);
    const two = async () => {
      const a = await store().createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });
      const b = await store().createPrincipal({ handle: 'bob', status: 'member', displayName: 'B' });
      return { a, b };
    };

    void it("files evidence attributed to its principal and lists only that principal's, oldest first", async () => {
      const { a, b } = await two();
      const e1 = await store().addEvidence({
        principalId: a.id,
        origin: 'manual',
        claim: 'Ran the fair',
        artifactRef: null,
      });
      await new Promise((r) => setTimeout(r, 5));
      const e2 = await store().addEvidence({
        principalId: a.id,
        origin: 'commit',
        claim: 'Fixed the gate',
        artifactRef: 'https://example.org/c/1',
      });
      await store().addEvidence({ principalId: b.id, origin: 'manual', claim: 'Other', artifactRef: null });
      assert.match(e1.id, /^ev_/);
      assert.equal(e1.origin, 'manual');
      assert.equal(e1.artifactRef, null);
      assertMemberText(e1.claim, 'Ran the fair', 'alice');
      assertMemberText(e2.artifactRef, 'https://example.org/c/1', 'alice');
      const listed = await store().listEvidence(a.id);
      assert.deepEqual(
        listed.map((e) => [e.id, e.origin]),
        [
          [e1.id, 'manual'],
          [e2.id, 'commit'],
        ],
      );
      assertMemberText(listed[1]?.claim ?? null, 'Fixed the gate', 'alice');
    });

    void it('asks and answers once: the question is the asker’s text, the answer the target’s', async () => {
      const { a, b } = await two();
      const q = await store().createQuestion({ askerId: a.id, targetId: b.id, question: 'Can you sail?' });
      assert.match(q.id, /^q_/);
      assert.equal(q.status, 'open');
      assert.equal(q.answer, null);
      assert.equal(q.answeredAt, null);
      assertMemberText(q.question, 'Can you sail?', 'alice');
      assert.equal(await store().answerQuestion(q.id, 'Yes, badly.', '2030-03-03T00:00:00.000Z'), true);
      assert.equal(await store().answerQuestion(q.id, 'Actually no.', '2030-03-04T00:00:00.000Z'), false);
      const got = await store().getQuestion(q.id);
      assert.equal(got?.status, 'answered');
      assert.equal(got?.answeredAt, '2030-03-03T00:00:00.000Z');
      assertMemberText(got?.answer ?? null, 'Yes, badly.', 'bob');
      assertMemberText(got?.question ?? null, 'Can you sail?', 'alice');
      assert.equal(await store().getQuestion('q_missing'), null);
      assert.equal(await store().answerQuestion('q_missing', 'x', FUTURE), false);
    });

    void it('lets exactly one of two simultaneous answers win', async () => {
      const { a, b } = await two();
      const q = await store().createQuestion({ askerId: a.id, targetId: b.id, question: 'Race?' });
      const results = await Promise.all([
        store().answerQuestion(q.id, 'first', '2030-03-03T00:00:00.000Z'),
        store().answerQuestion(q.id, 'second', '2030-03-03T00:00:00.000Z'),
      ]);
      assert.equal(results.filter(Boolean).length, 1);
      const winner = results[0] ? 'first' : 'second';
      assertMemberText((await store().getQuestion(q.id))?.answer ?? null, winner, 'bob');
    });

    void it('lists questions by target, asker and status', async () => {
      const { a, b } = await two();
      const q1 = await store().createQuestion({ askerId: a.id, targetId: b.id, question: 'one' });
      const q2 = await store().createQuestion({ askerId: a.id, targetId: b.id, question: 'two' });
      const q3 = await store().createQuestion({ askerId: b.id, targetId: a.id, question: 'three' });
      await store().answerQuestion(q2.id, 'ok', FUTURE);
      const ids = async (f: Parameters<ReturnType<typeof store>['listQuestions']>[0]) =>
        (await store().listQuestions(f)).map((q) => q.id).sort();
      assert.deepEqual(await ids({ targetId: b.id }), [q1.id, q2.id].sort());
      assert.deepEqual(await ids({ askerId: b.id }), [q3.id]);
      assert.deepEqual(await ids({ targetId: b.id, status: 'open' }), [q1.id]);
      assert.deepEqual(await ids({ status: 'answered' }), [q2.id]);
      assert.deepEqual(await ids({}), [q1.id, q2.id, q3.id].sort());
    });

    void it('counts the questions one asker put since a moment, as a number', async () => {
      const { a, b } = await two();
      for (const text of ['1', '2', '3'])
        await store().createQuestion({ askerId: a.id, targetId: b.id, question: text });
      await store().createQuestion({ askerId: b.id, targetId: a.id, question: 'back' });
      const n = await store().countQuestionsAskedSince(a.id, PAST);
      assert.equal(typeof n, 'number');
      assert.equal(n, 3);
      assert.equal(await store().countQuestionsAskedSince(a.id, FUTURE), 0);
      assert.equal(await store().countQuestionsAskedSince(b.id, PAST), 1);
      assert.equal(await store().countQuestionsAskedSince('pr_missing', PAST), 0);
    });

    void it('counts from a moment inclusively, so a daily window starts at its first second', async () => {
      const { a, b } = await two();
      const q1 = await store().createQuestion({ askerId: a.id, targetId: b.id, question: 'early' });
      await new Promise((r) => setTimeout(r, 5));
      const q2 = await store().createQuestion({ askerId: a.id, targetId: b.id, question: 'late' });
      assert.equal(await store().countQuestionsAskedSince(a.id, q1.askedAt), 2);
      assert.equal(await store().countQuestionsAskedSince(a.id, q2.askedAt), 1);
    });
  });
}
