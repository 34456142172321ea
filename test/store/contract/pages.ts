import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forHumans } from '../../../src/untrusted/index.ts';
import { pagePrincipals } from '../../../src/store/pages.ts';
import { PAST, useStore, type Backend } from './backend.ts';

export function pageContract(backend: Backend): void {
  void describe('keyset pages, search terms and the server secret', () => {
    const store = useStore(backend);

    void it('pages principals of a status by handle, after a handle, bounded by the limit', async () => {
      for (const h of ['d-d', 'a_c', 'b1', 'c2', 'a-d'])
        await store().createPrincipal({ handle: h, status: 'member', displayName: h });
      await store().createPrincipal({ handle: 'cand', status: 'candidate', displayName: 'C' });
      const page = async (after?: string) =>
        (
          await store().pagePrincipals({ status: 'member' }, { limit: 2, ...(after ? { after } : {}) })
        ).rows.map((p) => p.handle);
      // Byte order on both engines: '-' (0x2d) < '_' (0x5f) < letters.
      assert.deepEqual(await page(), ['a-d', 'a_c']);
      assert.deepEqual(await page('a_c'), ['b1', 'c2']);
      assert.deepEqual(await page('c2'), ['d-d']);
      assert.deepEqual(await page('d-d'), []);
      assert.equal(await store().countPrincipals({ status: 'member' }), 5);
      assert.equal(await store().countPrincipals(), 6);
    });

    void it('finds principals by word prefixes of handle, name and headline, any case', async () => {
      const a = await store().createPrincipal({
        handle: 'ana_k',
        status: 'member',
        displayName: 'Ána Kovač',
        headline: 'PostgreSQL tuning',
      });
      await store().createPrincipal({ handle: 'bo', status: 'member', displayName: 'Bo', headline: 'Boats' });
      const find = async (query: string) =>
        (await store().pagePrincipals({ status: 'member', query }, { limit: 10 })).rows.map((p) => p.handle);
      assert.deepEqual(await find('ÁNA'), ['ana_k']);
      assert.deepEqual(await find('kovač postgres'), ['ana_k']);
      assert.deepEqual(await find('ana_'), ['ana_k']);
      assert.deepEqual(await find('bo'), ['bo']);
      assert.deepEqual(await find('tuning boats'), []);
      assert.deepEqual(await find('!!!'), []);
      await store().updateProfile(a.id, { headline: 'SQLite now' });
      assert.deepEqual(await find('postgres'), []);
      assert.deepEqual(await find('sqlite'), ['ana_k']);
      assert.equal(forHumans((await store().getPrincipalById(a.id))!.headline), 'SQLite now');
    });

    void it('plans a search by how broad its words are, and every plan gives the same answer', async () => {
      // 60 principals say "crowd"; every 7th also "pick"; every 2nd also "even". With a
      // small plan, "pick" (8) is narrow, "even" (30) broad, "crowd" (60) very broad.
      const plan = { narrow: 10, broad: 40, window: 9 };
      for (let i = 1; i <= 60; i++) {
        const words = ['crowd', ...(i % 7 === 0 ? ['pick'] : []), ...(i % 2 === 0 ? ['even'] : [])];
        await store().createPrincipal({
          handle: `h${100 + i}`,
          status: 'member',
          displayName: words.join(' '),
        });
      }
      const expected = (test: (i: number) => boolean) =>
        Array.from({ length: 60 }, (_, k) => k + 1)
          .filter(test)
          .map((i) => `h${100 + i}`);
      /** Every page until there is no way on; pages may be short (a bounded walk) yet not the last. */
      const all = async (query: string) => {
        const seen: string[] = [];
        let after: string | undefined;
        for (let calls = 0; calls < 100; calls++) {
          const page = await pagePrincipals(
            store().sql,
            { status: 'member', query },
            { limit: 3, ...(after ? { after } : {}) },
            plan,
          );
          seen.push(...page.rows.map((p) => p.handle));
          const last = page.rows.length === 3 ? page.rows[2]!.handle : page.walkedTo;
          if (last === undefined) return seen;
          after = last;
        }
        throw new Error('the walk never ended');
      };
      assert.deepEqual(
        await all('pick'),
        expected((i) => i % 7 === 0),
      ); // narrow word drives
      assert.deepEqual(
        await all('crowd pick'),
        expected((i) => i % 7 === 0),
      ); // narrow drives, very broad checked
      assert.deepEqual(
        await all('even crowd'),
        expected((i) => i % 2 === 0),
      ); // walk: both very broad...
      assert.deepEqual(
        await all('pick even'),
        expected((i) => i % 14 === 0),
      );
      assert.deepEqual(
        await all('crowd'),
        expected(() => true),
      ); // one very broad word: the walk
      assert.deepEqual(await all('crowd nobody'), []);
      // A walk checks at most `window` rows: a rare match far down comes after short pages.
      const first = await pagePrincipals(
        store().sql,
        { status: 'member', query: 'crowd even' },
        { limit: 50 },
        { narrow: 3, broad: 5, window: 9 },
      );
      assert.deepEqual(
        first.rows.map((p) => p.handle),
        expected((i) => i <= 9 && i % 2 === 0),
      );
      assert.equal(first.walkedTo, 'h109');
      // The store's own plan gives the same answers.
      const find = async (query: string) =>
        (await store().pagePrincipals({ status: 'member', query }, { limit: 100 })).rows.map((p) => p.handle);
      assert.deepEqual(
        await find('pick even'),
        expected((i) => i % 14 === 0),
      );
      assert.deepEqual(
        await find('crowd'),
        expected(() => true),
      );
    });

    void it('indexes principals created before search existed, on first search', async () => {
      const p = await store().createPrincipal({ handle: 'old', status: 'member', displayName: 'Olden' });
      await store().sql.run('DELETE FROM principal_terms WHERE principal_id = ?', [p.id]);
      const found = await store().pagePrincipals({ status: 'member', query: 'olden' }, { limit: 5 });
      assert.deepEqual(
        found.rows.map((x) => x.handle),
        ['old'],
      );
    });

    void it('pages time-ordered rows by (time, id): rows of one instant are neither skipped nor repeated', async () => {
      const p = await store().createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });
      for (let i = 0; i < 7; i++) {
        await store().sql.run(
          `INSERT INTO evidence (id, principal_id, origin, claim, artifact_ref, created_at) VALUES (?, ?, 'manual', ?, NULL, ?)`,
          [`ev_${String(9 - i)}`, p.id, `c${i}`, i < 5 ? PAST : '2001-01-01T00:00:00.000Z'],
        );
      }
      const all = async (newestFirst: boolean) => {
        const seen: string[] = [];
        let after: { at: string; id: string } | undefined;
        for (;;) {
          const rows = await store().pageEvidence(p.id, {
            limit: 3,
            newestFirst,
            ...(after ? { after } : {}),
          });
          seen.push(...rows.map((r) => r.id));
          if (rows.length < 3) return seen;
          const last = rows[rows.length - 1]!;
          after = { at: last.createdAt, id: last.id };
        }
      };
      assert.deepEqual(await all(false), ['ev_5', 'ev_6', 'ev_7', 'ev_8', 'ev_9', 'ev_3', 'ev_4']);
      assert.deepEqual(await all(true), ['ev_4', 'ev_3', 'ev_9', 'ev_8', 'ev_7', 'ev_6', 'ev_5']);
      assert.deepEqual(await store().countEvidenceByOrigin(p.id), { manual: 7 });
    });

    void it('pages a candidate’s reviews by (time, id), counted, never another candidate’s', async () => {
      const cand = await store().createPrincipal({ handle: 'cand', status: 'candidate', displayName: 'C' });
      const other = await store().createPrincipal({ handle: 'other', status: 'candidate', displayName: 'O' });
      for (let i = 0; i < 7; i++) {
        const r = await store().createPrincipal({ handle: `r${i}`, status: 'member', displayName: `R${i}` });
        await store().sql.run(
          `INSERT INTO reviews (id, reviewer_id, candidate_id, verdict, note, created_at) VALUES (?, ?, ?, 'support', ?, ?)`,
          [`rv_${String(9 - i)}`, r.id, cand.id, `n${i}`, i < 5 ? PAST : '2001-01-01T00:00:00.000Z'],
        );
        if (i === 0)
          await store().addReview({ reviewerId: r.id, candidateId: other.id, verdict: 'oppose', note: 'x' });
      }
      const all = async (newestFirst: boolean) => {
        const seen: string[] = [];
        let after: { at: string; id: string } | undefined;
        for (;;) {
          const rows = await store().pageReviews(cand.id, {
            limit: 3,
            newestFirst,
            ...(after ? { after } : {}),
          });
          assert.ok(rows.every((r) => r.candidateId === cand.id && r.reviewerHandle.startsWith('r')));
          seen.push(...rows.map((r) => r.id));
          if (rows.length < 3) return seen;
          const last = rows[rows.length - 1]!;
          after = { at: last.createdAt, id: last.id };
        }
      };
      assert.deepEqual(await all(false), ['rv_5', 'rv_6', 'rv_7', 'rv_8', 'rv_9', 'rv_3', 'rv_4']);
      assert.deepEqual(await all(true), ['rv_4', 'rv_3', 'rv_9', 'rv_8', 'rv_7', 'rv_6', 'rv_5']);
      assert.equal(forHumans((await store().pageReviews(cand.id, { limit: 1 }))[0]!.note), 'n4');
      assert.equal(await store().countReviews(cand.id), 7);
      assert.equal(await store().countReviews(other.id), 1);
    });

    void it('keeps one server secret per name, the same on every read', async () => {
      const a = await store().serverSecret('cursor');
      assert.match(a, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(await store().serverSecret('cursor'), a);
      assert.notEqual(await store().serverSecret('other'), a);
    });
  });
}
