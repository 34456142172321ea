import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FUTURE, PAST, useStore, type Backend } from './backend.ts';

/** The store's own limits: each is one conditional write, so concurrency cannot get past it. */
export function limitContract(backend: Backend): void {
  void describe('limits the store enforces', () => {
    const store = useStore(backend);
    const two = async () => ({
      a: await store().createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' }),
      b: await store().createPrincipal({ handle: 'bob', status: 'member', displayName: 'B' }),
    });

    void it('writes a question only under the daily limit, even when asked all at once', async () => {
      const { a, b } = await two();
      const asks = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store().createQuestionWithinLimit(
            { askerId: a.id, targetId: b.id, question: `q${i}` },
            { max: 3, since: PAST },
          ),
        ),
      );
      assert.equal(asks.filter((q) => q !== null).length, 3);
      assert.equal((await store().listQuestions({ askerId: a.id })).length, 3);
      // Questions before `since` do not count against the day.
      const tomorrow = await store().createQuestionWithinLimit(
        { askerId: a.id, targetId: b.id, question: 'next day' },
        { max: 3, since: FUTURE },
      );
      assert.ok(tomorrow);
    });

    void it('keeps one review per reviewer and candidate, whoever races', async () => {
      const { a } = await two();
      const c = await store().createPrincipal({ handle: 'cand', status: 'candidate', displayName: 'C' });
      const added = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store().addReview({ reviewerId: a.id, candidateId: c.id, verdict: 'support', note: `n${i}` }),
        ),
      );
      assert.equal(added.filter((r) => r !== null).length, 1);
      assert.equal((await store().listReviews({ candidateId: c.id })).length, 1);
    });

    void it('revoking a token closes its pending decisions as stale in the same write', async () => {
      const { a } = await two();
      const t = await store().insertToken({
        principalId: a.id,
        label: 'x',
        hash: 'h-limits',
        scopes: ['consult'],
        expiresAt: null,
      });
      const mk = (tokenId: string | null) =>
        store().createDecision({
          principalId: a.id,
          tokenId,
          tool: 'ask_agent',
          arguments: { to: 'bob', question: 'q' },
          reasonCode: 'daily_question_limit',
          reason: 'r',
        });
      const mine = await mk(t.id);
      const inPerson = await mk(null);
      const why = {
        ok: false as const,
        refusal: { code: 'stale_token_revoked', reason: 'revoked', next: 'n' },
      };
      assert.equal(await store().revokeToken(t.id, '2030-01-01T00:00:00.000Z', why), true);
      assert.equal((await store().getDecision(mine.id))?.status, 'stale');
      assert.deepEqual((await store().getDecision(mine.id))?.outcome, why);
      assert.equal((await store().getDecision(inPerson.id))?.status, 'pending');
      // An approval needs the asking token live in the same write; a denial does not.
      const late = await mk(t.id);
      assert.equal(await store().claimDecision(late.id, 'approved', null, '2030-02-01T00:00:00.000Z'), false);
      assert.equal(await store().claimDecision(late.id, 'denied', null, '2030-02-01T00:00:00.000Z'), true);
      assert.equal(await store().closeStale(inPerson.id, why, '2030-02-01T00:00:00.000Z'), true);
      assert.equal(await store().closeStale(inPerson.id, why, '2030-02-01T00:00:00.000Z'), false);
    });

    void it('takes from a shared rate bucket in one conditional write: refills, never runs time back, sweeps idle ones', async () => {
      const rate = { perSecond: 2, burst: 3 };
      const t0 = 1_000_000;
      const takes = await Promise.all(
        Array.from({ length: 10 }, () => store().takeFromBucket('token:a', rate, t0)),
      );
      assert.equal(takes.filter((r) => r.ok).length, 3);
      const over = takes.find((r) => !r.ok);
      assert.ok(over && !over.ok && over.tokens < 1);
      assert.ok((await store().takeFromBucket('token:b', rate, t0)).ok, 'another key has its own bucket');
      // Half a second refills one request at 2/s; a replica whose clock is behind adds nothing.
      assert.ok((await store().takeFromBucket('token:a', rate, t0 + 500)).ok);
      assert.ok(!(await store().takeFromBucket('token:a', rate, t0 + 500)).ok);
      assert.ok(!(await store().takeFromBucket('token:a', rate, t0 - 60_000)).ok);
      assert.ok((await store().takeFromBucket('token:a', rate, t0 + 1000)).ok);
      // A long quiet spell refills to the burst, not beyond.
      const later = t0 + 3_600_000;
      const after = await Promise.all(
        Array.from({ length: 6 }, () => store().takeFromBucket('token:a', rate, later)),
      );
      assert.equal(after.filter((r) => r.ok).length, 3);
      assert.equal(await store().sweepBuckets(t0 + 10_000), 1, 'only the idle bucket b is swept');
      assert.ok((await store().takeFromBucket('token:b', rate, later)).ok, 'a swept bucket comes back full');
    });

    void it('takes the messages of a batch from a shared bucket all at once, or none of them', async () => {
      const rate = { perSecond: 2, burst: 10 };
      const t0 = 5_000_000;
      assert.ok(!(await store().takeFromBucket('token:n', rate, t0, 11)).ok, 'more than a new bucket holds');
      assert.ok((await store().takeFromBucket('token:n', rate, t0, 7)).ok);
      const short = await store().takeFromBucket('token:n', rate, t0, 4);
      assert.ok(!short.ok && Math.abs(short.tokens - 3) < 1e-9, 'three left; four asked: none taken');
      assert.ok((await store().takeFromBucket('token:n', rate, t0, 3)).ok);
      assert.ok(!(await store().takeFromBucket('token:n', rate, t0, 1)).ok);
      assert.ok((await store().takeFromBucket('token:n', rate, t0 + 1000, 2)).ok, 'a second refills two');
    });
  });
}
