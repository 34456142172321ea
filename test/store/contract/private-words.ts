import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { PRIVATE_WORDS_RETENTION, SEVERAL_AUTHORS } from '../../../src/core/private-words.ts';
import type { SqlExecutor } from '../../../src/store/sql.ts';
import { SqlStore, type SqlStoreOptions } from '../../../src/store/sql-store.ts';
import { useStore, type Backend } from './backend.ts';

/** 16 hex digits, as core/private-words.ts makes them. */
const fp = (author: string, i: number): string =>
  createHash('sha256').update(`${author} ${i}`).digest('hex').slice(0, 16);
const of = (author: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ fingerprint: fp(author, from + i), author }));
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

/** Fingerprints held and who wrote them: private words stay bounded by count and age, on any number of replicas. */
export function privateWordsContract(backend: Backend): void {
  void describe('private words: fingerprints per principal', () => {
    const store = useStore(backend);
    const alongside = (options: SqlStoreOptions) => {
      const sql: SqlExecutor = store().sql;
      return new SqlStore(
        {
          kind: sql.kind,
          all: sql.all.bind(sql),
          allArrays: sql.allArrays.bind(sql),
          get: sql.get.bind(sql),
          run: sql.run.bind(sql),
          batch: sql.batch.bind(sql),
          write: sql.write.bind(sql),
          writeAside: sql.writeAside.bind(sql),
          close: () => Promise.resolve(),
        },
        options,
      );
    };
    const principal = (handle: string) =>
      store().createPrincipal({ handle, status: 'member', displayName: handle });

    void it('finds what was recorded for this principal only, with its author', async () => {
      const alice = await principal('alice');
      const bob = await principal('bob');
      await store().recordPrivateWords(alice.id, of('mallory', 0, 3), at(0));
      const found = await store().findPrivateWords(alice.id, [fp('mallory', 1), fp('mallory', 9)], at(1));
      assert.deepEqual(found, [{ fingerprint: fp('mallory', 1), author: 'mallory' }]);
      assert.deepEqual(await store().findPrivateWords(bob.id, [fp('mallory', 1)], at(1)), []);
      assert.equal(await store().countPrivateWords(alice.id), 3);
    });

    void it('words two members served to the principal are held as several authors’, and stay so', async () => {
      const alice = await principal('alice');
      await store().recordPrivateWords(alice.id, of('mallory', 0, 2), at(0));
      await store().recordPrivateWords(alice.id, [{ fingerprint: fp('mallory', 0), author: 'bob' }], at(1));
      await store().recordPrivateWords(
        alice.id,
        [{ fingerprint: fp('mallory', 0), author: 'mallory' }],
        at(2),
      );
      const found = await store().findPrivateWords(alice.id, [fp('mallory', 0), fp('mallory', 1)], at(3));
      assert.deepEqual(
        found.sort((a, b) => a.author.localeCompare(b.author)),
        [
          { fingerprint: fp('mallory', 0), author: SEVERAL_AUTHORS },
          { fingerprint: fp('mallory', 1), author: 'mallory' },
        ],
      );
    });

    void it('serving the same words again adds no row', async () => {
      const alice = await principal('alice');
      await store().recordPrivateWords(alice.id, of('mallory', 0, 50), at(0));
      await store().recordPrivateWords(alice.id, of('mallory', 0, 50), at(1));
      assert.equal(await store().countPrivateWords(alice.id), 50);
    });

    void it('over the count, the author holding the most loses their least recently served first', async () => {
      const bounded = alongside({ privateWordsRetention: { maxPerPrincipal: 100, maxAgeMs: 1e13 } });
      const alice = await principal('alice');
      await bounded.recordPrivateWords(alice.id, of('bob', 0, 30), at(0));
      // A flood from one author: it evicts only its own words, oldest first.
      for (let round = 0; round < 5; round++)
        await bounded.recordPrivateWords(alice.id, of('mallory', round * 40, 40), at(1 + round));
      assert.equal(await bounded.countPrivateWords(alice.id), 100);
      const bob = await bounded.findPrivateWords(
        alice.id,
        of('bob', 0, 30).map((f) => f.fingerprint),
        at(9),
      );
      assert.equal(bob.length, 30, "bob's words are all kept");
      const newest = of('mallory', 160, 40).map((f) => f.fingerprint);
      assert.equal((await bounded.findPrivateWords(alice.id, newest, at(9))).length, 40);
      const oldest = of('mallory', 0, 40).map((f) => f.fingerprint);
      assert.equal((await bounded.findPrivateWords(alice.id, oldest, at(9))).length, 0);
    });

    void it('keeps the bound when replicas record for one principal at once', async () => {
      const bounded = () => alongside({ privateWordsRetention: { maxPerPrincipal: 120, maxAgeMs: 1e13 } });
      const alice = await principal('alice');
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          bounded().recordPrivateWords(alice.id, of(`m${i}`, 0, 40), at(i)),
        ),
      );
      assert.equal(await store().countPrivateWords(alice.id), 120);
    });

    void it('forgets words served longer ago than the age, swept or not', async () => {
      const short = alongside({ privateWordsRetention: { maxPerPrincipal: 1000, maxAgeMs: 60_000 } });
      const alice = await principal('alice');
      await short.recordPrivateWords(alice.id, of('mallory', 0, 5), at(0));
      assert.equal((await short.findPrivateWords(alice.id, [fp('mallory', 0)], at(0))).length, 1);
      assert.equal((await short.findPrivateWords(alice.id, [fp('mallory', 0)], at(2))).length, 0, 'not read');
      await short.recordPrivateWords(alice.id, of('bob', 0, 1), at(2));
      assert.equal(await short.countPrivateWords(alice.id), 1, 'swept by the next write');
    });

    void it('has a stated default bound', () => {
      assert.equal(PRIVATE_WORDS_RETENTION.maxPerPrincipal, 10_000);
      assert.equal(PRIVATE_WORDS_RETENTION.maxAgeMs, 30 * 24 * 3600 * 1000);
    });
  });
}
