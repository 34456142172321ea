import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forHumans } from '../../../src/untrusted/index.ts';
import { PAST, useStore, type Backend } from './backend.ts';

export function pageContract(backend: Backend): void {
  void describe('keyset pages, search terms and the server secret', () => {
    const store = useStore(backend);

    void it('pages principals of a status by handle, after a handle, bounded by the limit', async () => {
      for (const h of ['d-d', 'a_c', 'b1', 'c2', 'a-d'])
        await store().createPrincipal({ handle: h, status: 'member', displayName: h });
      await store().createPrincipal({ handle: 'cand', status: 'candidate', displayName: 'C' });
      const page = async (after?: string) =>
        (await store().pagePrincipals({ status: 'member' }, { limit: 2, ...(after ? { after } : {}) })).map(
          (p) => p.handle,
        );
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
        (await store().pagePrincipals({ status: 'member', query }, { limit: 10 })).map((p) => p.handle);
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

    void it('indexes principals created before search existed, on first search', async () => {
      const p = await store().createPrincipal({ handle: 'old', status: 'member', displayName: 'Olden' });
      await store().sql.run('DELETE FROM principal_terms WHERE principal_id = ?', [p.id]);
      const found = await store().pagePrincipals({ status: 'member', query: 'olden' }, { limit: 5 });
      assert.deepEqual(
        found.map((x) => x.handle),
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
      const seen: string[] = [];
      let after: { at: string; id: string } | undefined;
      for (;;) {
        const rows = await store().pageEvidence(p.id, { limit: 3, ...(after ? { after } : {}) });
        seen.push(...rows.map((r) => r.id));
        if (rows.length < 3) break;
        const last = rows[rows.length - 1]!;
        after = { at: last.createdAt, id: last.id };
      }
      assert.deepEqual(seen, ['ev_5', 'ev_6', 'ev_7', 'ev_8', 'ev_9', 'ev_3', 'ev_4']);
      assert.deepEqual(await store().countEvidenceByOrigin(p.id), { manual: 7 });
    });

    void it('keeps one server secret per name, the same on every read', async () => {
      const a = await store().serverSecret('cursor');
      assert.match(a, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(await store().serverSecret('cursor'), a);
      assert.notEqual(await store().serverSecret('other'), a);
    });
  });
}
