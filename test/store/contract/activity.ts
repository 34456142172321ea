import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ACTIVITY_SUMMARY_MAX } from '../../../src/store/activity.ts';
import type { ActivityRecord, NewActivity, PageRequest } from '../../../src/store/contract.ts';
import { SqlStore, type SqlStoreOptions } from '../../../src/store/sql-store.ts';
import type { SqlExecutor } from '../../../src/store/sql.ts';
import { forHumans } from '../../../src/untrusted/index.ts';
import { assertMemberText, FUTURE, PAST, useStore, type Backend } from './backend.ts';

/** The executor's methods bound to it, to build a copy with one of them replaced. */
function bind(sql: SqlExecutor): SqlExecutor {
  return {
    kind: sql.kind,
    all: sql.all.bind(sql),
    allArrays: sql.allArrays.bind(sql),
    get: sql.get.bind(sql),
    run: sql.run.bind(sql),
    batch: sql.batch.bind(sql),
    write: sql.write.bind(sql),
    writeAside: sql.writeAside.bind(sql),
    close: sql.close.bind(sql),
  };
}

export function activityContract(backend: Backend): void {
  void describe('activity: what agents did, paged and bounded', () => {
    const store = useStore(backend);

    /** A principal with one token; `call(n)` makes a call record of it at second n of a recent minute. */
    const agentOf = async (handle: string, label = `${handle}-laptop`) => {
      const p = await store().createPrincipal({ handle, status: 'member', displayName: handle });
      const t = await store().insertToken({
        principalId: p.id,
        label,
        hash: `h-${handle}-${label}`,
        scopes: ['inbox'],
        expiresAt: FUTURE,
      });
      return { p, t };
    };
    /** A minute before each test starts: its calls are recent, and keep their order. */
    let base = 0;
    beforeEach(() => {
      base = Date.now() - 60_000;
    });
    const call = (
      principalId: string,
      tokenId: string,
      n: number,
      over: Partial<NewActivity> = {},
    ): NewActivity => ({
      principalId,
      tokenId,
      tool: 'club_info',
      outcome: 'done',
      code: null,
      decisionId: null,
      summary: `{"n":${n}}`,
      at: new Date(base + n * 10).toISOString(),
      ...over,
    });
    const count = async (principalId?: string) =>
      Number(
        (principalId
          ? await store().sql.get('SELECT COUNT(*) AS n FROM activity WHERE principal_id = ?', [principalId])
          : await store().sql.get('SELECT COUNT(*) AS n FROM activity'))!['n'],
      );
    const summaries = (rows: ActivityRecord[]) => rows.map((r) => (r.summary ? forHumans(r.summary) : null));
    /** Every row, following the keyset from page to page. */
    const walk = async (principalId: string, size: number, tokenId?: string) => {
      const seen: ActivityRecord[] = [];
      let after: number | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const page: PageRequest<number> = { limit: size, newestFirst: true, ...(after ? { after } : {}) };
        const rows = await store().pageActivity(principalId, tokenId ? { tokenId } : {}, page);
        seen.push(...rows);
        if (rows.length < size) return seen;
        after = rows[rows.length - 1]!.seq;
      }
      throw new Error('paging never ended');
    };

    void it('records each outcome with its code or decision, the agent’s words as member text', async () => {
      const { p, t } = await agentOf('alice');
      await store().recordActivity([
        call(p.id, t.id, 1),
        call(p.id, t.id, 2, { tool: 'file_evidence', outcome: 'refused', code: 'claim_without_artifact' }),
        call(p.id, t.id, 3, {
          tool: 'ask_agent',
          outcome: 'queued',
          code: 'counterpart_not_in_mandate',
          decisionId: 'dc_1',
          summary: '{"to":"bob","question":"<b>hi</b>"}',
        }),
      ]);
      const rows = await store().pageActivity(p.id, {}, { limit: 10, newestFirst: true });
      assert.deepEqual(
        rows.map((r) => [r.outcome, r.code, r.decisionId]),
        [
          ['queued', 'counterpart_not_in_mandate', 'dc_1'],
          ['refused', 'claim_without_artifact', null],
          ['done', null, null],
        ],
      );
      const queued = rows[0]!;
      assert.equal(queued.seq, 3, 'numbered in the order recorded');
      assert.equal(queued.principalId, p.id);
      assert.equal(queued.tokenId, t.id);
      assert.equal(queued.at, new Date(base + 30).toISOString());
      assertMemberText(queued.tool, 'ask_agent', 'alice');
      assertMemberText(queued.summary, '{"to":"bob","question":"<b>hi</b>"}', 'alice');
      assertMemberText(queued.tokenLabel, 'alice-laptop', 'alice');
      await store().recordActivity([call(p.id, t.id, 4, { summary: '' })]);
      const [none] = await store().pageActivity(p.id, {}, { limit: 1, newestFirst: true });
      assert.equal(none!.summary, null, 'no arguments sent: no text');
    });

    void it('pages newest first, or oldest first, by keyset, for all tokens or one', async () => {
      const { p, t } = await agentOf('alice');
      const other = await store().insertToken({
        principalId: p.id,
        label: 'phone',
        hash: 'h-phone',
        scopes: ['inbox'],
        expiresAt: null,
      });
      // Several writes and one batch; two calls of one millisecond keep the order recorded.
      for (let n = 1; n <= 5; n++) await store().recordActivity([call(p.id, n % 2 ? t.id : other.id, n)]);
      await store().recordActivity([
        call(p.id, t.id, 6),
        call(p.id, other.id, 7),
        call(p.id, t.id, 7, { summary: '{"n":"7b"}' }),
      ]);
      const all = await walk(p.id, 2);
      // Newest first: the later recorded of the two in one millisecond first.
      assert.deepEqual(summaries(all), [
        '{"n":"7b"}',
        '{"n":7}',
        '{"n":6}',
        '{"n":5}',
        '{"n":4}',
        '{"n":3}',
        '{"n":2}',
        '{"n":1}',
      ]);
      assert.deepEqual(
        all.map((r) => r.seq),
        [8, 7, 6, 5, 4, 3, 2, 1],
        'no row repeated or skipped',
      );
      const phone = await walk(p.id, 2, other.id);
      assert.deepEqual(summaries(phone), ['{"n":7}', '{"n":4}', '{"n":2}']);
      assert.ok(phone.every((r) => forHumans(r.tokenLabel!) === 'phone'));
      const oldest = await store().pageActivity(p.id, {}, { limit: 2 });
      assert.deepEqual(summaries(oldest), ['{"n":1}', '{"n":2}']);
      const after = await store().pageActivity(p.id, {}, { limit: 2, after: oldest[1]!.seq });
      assert.deepEqual(summaries(after), ['{"n":3}', '{"n":4}']);
    });

    void it('never gives one principal another’s activity, even asked with the other’s token', async () => {
      const a = await agentOf('alice');
      const b = await agentOf('bob');
      await store().recordActivity([call(a.p.id, a.t.id, 1), call(b.p.id, b.t.id, 2)]);
      assert.deepEqual(summaries(await walk(a.p.id, 10)), ['{"n":1}']);
      assert.deepEqual(summaries(await walk(b.p.id, 10)), ['{"n":2}']);
      assert.deepEqual(await walk(a.p.id, 10, b.t.id), []);
    });

    /** Another store over the same database, with its own options; closing it leaves the database open. */
    const alongside = (options: SqlStoreOptions) =>
      new SqlStore({ ...bind(store().sql), close: () => Promise.resolve() }, options);

    void it('never removes a row younger than the age bound, however many are written after it', async () => {
      const a = await agentOf('alice');
      const b = await agentOf('bob');
      await store().recordActivity([call(b.p.id, b.t.id, 0), call(a.p.id, a.t.id, 0)]);
      const many = (from: number, n: number) =>
        Array.from({ length: n }, (_, k) => call(a.p.id, a.t.id, from + k));
      // 450 rows in one write (three INSERT statements), then 21,000 more in writes of 3,000:
      // more than the count the record was once cut to; the first call is still there.
      await store().recordActivity(many(1, 450));
      for (let from = 451; from < 21_451; from += 3_000) await store().recordActivity(many(from, 3_000));
      assert.equal(await count(a.p.id), 21_451);
      const oldest = await store().pageActivity(a.p.id, {}, { limit: 1 });
      assert.deepEqual(summaries(oldest), ['{"n":0}'], 'alice’s first call outlives twenty thousand more');
      const newest = await store().pageActivity(a.p.id, {}, { limit: 3, newestFirst: true });
      assert.deepEqual(summaries(newest), ['{"n":21450}', '{"n":21449}', '{"n":21448}']);
      assert.equal(await count(b.p.id), 1, 'and bob’s is untouched');
    });

    void it('never reads back a row past the age bound; a write sweeps its principals’ and one other’s in turn', async () => {
      const a = await agentOf('alice');
      const b = await agentOf('bob');
      // Written by a store that keeps everything, then read by one that keeps 90 days.
      await alongside({
        activityRetention: { maxAgeMs: 1e13 },
      }).recordActivity([
        call(a.p.id, a.t.id, 0, { at: PAST, summary: 'old' }),
        call(b.p.id, b.t.id, 0, { at: PAST, summary: 'old too' }),
        call(a.p.id, a.t.id, 1),
      ]);
      assert.equal(await count(), 3);
      assert.deepEqual(summaries(await walk(a.p.id, 10)), ['{"n":1}'], 'hidden before it is swept');
      assert.deepEqual(await walk(b.p.id, 10), []);
      await store().recordActivity([call(a.p.id, a.t.id, 2)]);
      assert.equal(await count(a.p.id), 2, 'alice’s write swept her row past 90 days');
      // Bob's agent is silent: his old row goes when his turn comes, within a write per principal.
      await store().recordActivity([call(a.p.id, a.t.id, 3)]);
      assert.equal(await count(b.p.id), 0, 'bob’s row went with alice’s writes');
      // A bound of 30 s: alice's rows, a minute old, go with bob's writes in turn.
      const short = alongside({ activityRetention: { maxAgeMs: 30_000 } });
      for (const n of [5_000, 5_001]) await short.recordActivity([call(b.p.id, b.t.id, n)]);
      assert.equal(await count(a.p.id), 0, 'alice’s rows went with bob’s writes');
      assert.deepEqual(summaries(await walk(b.p.id, 10)), ['{"n":5001}', '{"n":5000}']);
      // Every row past the age, none younger: when none is young enough, all of them.
      const keep = alongside({ activityRetention: { maxAgeMs: 1e13 } });
      await keep.recordActivity([0, 1, 2].map((n) => call(a.p.id, a.t.id, n, { at: PAST })));
      await short.recordActivity([call(b.p.id, b.t.id, 5_002)]);
      await short.recordActivity([call(b.p.id, b.t.id, 5_003)]);
      assert.equal(await count(a.p.id), 0);
      assert.equal(await count(b.p.id), 4);
    });

    void it('writes in batches off the caller’s path; a read or close() first writes what waits', async () => {
      const { p, t } = await agentOf('alice');
      const slow = alongside({ activityFlushMs: 60_000 });
      const committed = slow.recordActivity([call(p.id, t.id, 1)]);
      void slow.recordActivity([call(p.id, t.id, 2)]);
      assert.equal(await count(), 0, 'nothing written yet: the batch waits');
      assert.deepEqual(summaries(await slow.pageActivity(p.id, {}, { limit: 5, newestFirst: true })), [
        '{"n":2}',
        '{"n":1}',
      ]);
      await committed;
      void slow.recordActivity([call(p.id, t.id, 3)]);
      await slow.close();
      assert.equal(await count(), 3, 'close() wrote the last one');
      // A full batch does not wait for the timer.
      const small = alongside({ activityFlushMs: 60_000, activityBatch: 3 });
      await Promise.all([4, 5, 6].map((n) => small.recordActivity([call(p.id, t.id, n)])));
      assert.equal(await count(), 6);
    });

    void it('tries a failed write once more, then gives up that write alone, with its error', async () => {
      const { p, t } = await agentOf('alice');
      let failures = 0;
      const flaky = (fail: number) =>
        new SqlStore(
          {
            ...bind(store().sql),
            writeAside: (statements) =>
              failures++ < fail
                ? Promise.reject(new Error('the disk is full'))
                : store().sql.writeAside(statements),
            close: () => Promise.resolve(),
          },
          { activityFlushMs: 5 },
        );
      await flaky(1).recordActivity([call(p.id, t.id, 1)]);
      assert.equal(await count(p.id), 1, 'written on the second try');
      failures = 0;
      const failing = flaky(2);
      await assert.rejects(failing.recordActivity([call(p.id, t.id, 2)]), /the disk is full/);
      await failing.recordActivity([call(p.id, t.id, 3)]);
      assert.deepEqual(summaries(await walk(p.id, 10)), ['{"n":3}', '{"n":1}']);
    });

    void it('cuts a long summary or tool name to its bound, never inside a character', async () => {
      const { p, t } = await agentOf('alice');
      await store().recordActivity([
        call(p.id, t.id, 1, { summary: '😀'.repeat(10_000), tool: 'x'.repeat(500) }),
      ]);
      const [row] = await store().pageActivity(p.id, {}, { limit: 1 });
      const summary = forHumans(row!.summary!, Number.MAX_SAFE_INTEGER);
      assert.equal(Array.from(summary).length, ACTIVITY_SUMMARY_MAX);
      assert.ok(summary.endsWith('😀…'));
      assert.equal(forHumans(row!.tool, Number.MAX_SAFE_INTEGER), `${'x'.repeat(63)}…`);
    });

    void it('numbers each principal’s rows in the order recorded, when one write holds several principals’', async () => {
      const a = await agentOf('alice');
      const b = await agentOf('bob');
      // Interleaved, and more than one INSERT statement's worth for each.
      const calls = Array.from({ length: 500 }, (_, n) =>
        n % 2 ? call(b.p.id, b.t.id, n) : call(a.p.id, a.t.id, n),
      );
      await store().recordActivity(calls);
      await store().recordActivity([call(a.p.id, a.t.id, 500), call(b.p.id, b.t.id, 501)]);
      const expect = (odd: number) => Array.from({ length: 251 }, (_, k) => `{"n":${500 + odd - 2 * k}}`);
      assert.deepEqual(summaries(await walk(a.p.id, 100)), expect(0));
      assert.deepEqual(summaries(await walk(b.p.id, 100)), expect(1));
      const seqs = (await walk(a.p.id, 100)).map((r) => r.seq);
      assert.deepEqual(
        seqs,
        Array.from({ length: 251 }, (_, k) => 251 - k),
      );
    });

    void it('loses no row to concurrent writes on one store', async () => {
      const { p, t } = await agentOf('alice');
      await Promise.all(Array.from({ length: 20 }, (_, n) => store().recordActivity([call(p.id, t.id, n)])));
      assert.equal((await walk(p.id, 7)).length, 20);
    });
  });
}
