import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMemberText, useStore, type Backend } from './backend.ts';

export function reviewAndDecisionContract(backend: Backend): void {
  void describe('reviews and decisions', () => {
    const store = useStore(backend);
    const principal = (handle: string, status: 'member' | 'candidate' = 'member') =>
      store().createPrincipal({ handle, status, displayName: handle });
    const decision = (principalId: string, tokenId: string | null = null) =>
      store().createDecision({
        principalId,
        tokenId,
        tool: 'ask_agent',
        arguments: { to: 'bob', question: 'Lunch?', nested: { n: 1, ok: true } },
        reasonCode: 'consult_counterpart_not_allowed',
        reason: 'bob is not among the allowed counterparts',
      });

    void it('finds the latest denial of the same request inside a window, and nothing else', async () => {
      const a = await principal('alice');
      const b = await principal('bob');
      const ask = (principalId: string, requestKey: string | null) =>
        store().createDecision({
          principalId,
          tokenId: null,
          tool: 'ask_agent',
          arguments: { to: 'mallory', question: 'Hi' },
          reasonCode: 'counterpart_not_in_mandate',
          reason: 'not listed',
          requestKey,
        });
      const key = 'ask_agent:@mallory';
      const pending = await ask(a.id, key);
      assert.equal(pending.requestKey, key);
      assert.equal(
        await store().findDenial(a.id, key, '2000-01-01T00:00:00.000Z'),
        null,
        'pending is no denial',
      );
      assert.equal((await store().findPending(a.id, key))?.id, pending.id, 'the one waiting, by its key');
      assert.equal(await store().findPending(a.id, 'ask_agent:@dave'), null);
      assert.equal(await store().findPending(b.id, key), null, 'another principal');
      const first = await ask(a.id, key);
      assert.ok(await store().claimDecision(first.id, 'denied', 'No.', '2026-01-01T00:00:00.000Z'));
      const second = await ask(a.id, key);
      assert.ok(await store().claimDecision(second.id, 'denied', 'Still no.', '2026-01-02T00:00:00.000Z'));
      const approved = await ask(a.id, key);
      assert.ok(await store().claimDecision(approved.id, 'approved', null, '2026-01-03T00:00:00.000Z'));
      assert.equal((await store().findDenial(a.id, key, '2025-12-31T00:00:00.000Z'))?.id, second.id);
      assert.equal((await store().findDenial(a.id, key, '2026-01-02T00:00:00.000Z'))?.id, second.id);
      assert.equal(
        await store().findDenial(a.id, key, '2026-01-02T00:00:00.001Z'),
        null,
        'outside the window',
      );
      assert.equal(await store().findDenial(a.id, 'ask_agent:@dave', '2025-01-01T00:00:00.000Z'), null);
      assert.equal(
        await store().findDenial(b.id, key, '2025-01-01T00:00:00.000Z'),
        null,
        'another principal',
      );
      const old = await ask(a.id, null);
      assert.equal(old.requestKey, null);
    });

    void it('records reviews attributed to the reviewer and lists them by candidate and by reviewer', async () => {
      const a = await principal('alice');
      const b = await principal('bob');
      const c = await principal('cand', 'candidate');
      const d = await principal('dora', 'candidate');
      const r1 = await store().addReview({
        reviewerId: a.id,
        candidateId: c.id,
        verdict: 'support',
        note: 'Solid',
      });
      const r2 = await store().addReview({
        reviewerId: b.id,
        candidateId: c.id,
        verdict: 'oppose',
        note: 'Unsure',
      });
      const r3 = await store().addReview({
        reviewerId: a.id,
        candidateId: d.id,
        verdict: 'support',
        note: 'Yes',
      });
      assert.ok(r1 && r2 && r3);
      assert.match(r1.id, /^rv_/);
      assert.equal(r1.verdict, 'support');
      assertMemberText(r1.note, 'Solid', 'alice');
      assertMemberText(r2.note, 'Unsure', 'bob');
      const ids = async (f: { candidateId?: string; reviewerId?: string }) =>
        (await store().listReviews(f)).map((r) => r.id).sort();
      assert.deepEqual(await ids({ candidateId: c.id }), [r1.id, r2.id].sort());
      assert.deepEqual(await ids({ reviewerId: a.id }), [r1.id, r3.id].sort());
      assert.deepEqual(await ids({ reviewerId: b.id, candidateId: d.id }), []);
    });

    void it('queues a decision with its request attached, pending and without outcome', async () => {
      const a = await principal('alice');
      const t = await store().insertToken({
        principalId: a.id,
        label: 'l',
        hash: 'h',
        scopes: [],
        expiresAt: null,
      });
      const d = await decision(a.id, t.id);
      assert.match(d.id, /^dc_/);
      assert.equal(d.status, 'pending');
      assert.equal(d.tokenId, t.id);
      assert.equal(d.tool, 'ask_agent');
      assert.deepEqual(d.arguments, { to: 'bob', question: 'Lunch?', nested: { n: 1, ok: true } });
      assert.equal(d.reasonCode, 'consult_counterpart_not_allowed');
      assert.equal(d.note, null);
      assert.equal(d.outcome, null);
      assert.equal(d.decidedAt, null);
      assert.deepEqual(await store().getDecision(d.id), d);
      assert.equal(await store().getDecision('dc_missing'), null);
      assert.equal((await decision(a.id)).tokenId, null);
    });

    void it('is decided only once; the note is the principal’s text and the outcome is kept', async () => {
      const a = await principal('alice');
      const d = await decision(a.id);
      assert.equal(
        await store().claimDecision(d.id, 'approved', 'Go ahead', '2030-04-04T00:00:00.000Z'),
        true,
      );
      assert.equal(
        await store().claimDecision(d.id, 'denied', 'Changed my mind', '2030-04-05T00:00:00.000Z'),
        false,
      );
      const outcome = {
        ok: true,
        result: { questionId: 'q_1', queued: false, count: 2, extra: null },
      } as const;
      await store().recordDecisionOutcome(d.id, outcome);
      const got = await store().getDecision(d.id);
      assert.equal(got?.status, 'approved');
      assert.equal(got?.decidedAt, '2030-04-04T00:00:00.000Z');
      assertMemberText(got?.note ?? null, 'Go ahead', 'alice');
      assert.deepEqual(got?.outcome, outcome);
      const refused = { ok: false, refusal: { code: 'target_closed', reason: 'r', next: 'n' } } as const;
      await store().recordDecisionOutcome(d.id, refused);
      assert.deepEqual((await store().getDecision(d.id))?.outcome, refused);
      assert.equal(
        await store().claimDecision('dc_missing', 'denied', null, '2030-04-04T00:00:00.000Z'),
        false,
      );
    });

    void it('lets exactly one of two simultaneous decisions win', async () => {
      const a = await principal('alice');
      const d = await decision(a.id);
      const [approved, denied] = await Promise.all([
        store().claimDecision(d.id, 'approved', null, '2030-04-04T00:00:00.000Z'),
        store().claimDecision(d.id, 'denied', 'no', '2030-04-04T00:00:00.000Z'),
      ]);
      assert.equal(Number(approved) + Number(denied), 1);
      assert.equal((await store().getDecision(d.id))?.status, approved ? 'approved' : 'denied');
    });

    void it("lists one principal's decisions, filtered by status", async () => {
      const a = await principal('alice');
      const b = await principal('bob');
      const d1 = await decision(a.id);
      const d2 = await decision(a.id);
      await decision(b.id);
      await store().claimDecision(d2.id, 'denied', null, '2030-04-04T00:00:00.000Z');
      const ids = async (status?: 'pending' | 'approved' | 'denied') =>
        (await store().listDecisions(a.id, status ? { status } : {})).map((d) => d.id).sort();
      assert.deepEqual(await ids(), [d1.id, d2.id].sort());
      assert.deepEqual(await ids('pending'), [d1.id]);
      assert.deepEqual(await ids('denied'), [d2.id]);
      assert.deepEqual(await ids('approved'), []);
      const denied = await store().getDecision(d2.id);
      assert.equal(denied?.note, null);
    });
  });
}
