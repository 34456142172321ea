import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultMandate, normaliseMandate } from '../../../src/core/mandate.ts';
import { assertMemberText, useStore, type Backend } from './backend.ts';

export function principalContract(backend: Backend): void {
  void describe('principals', () => {
    const store = useStore(backend);

    void it('creates a principal with the default mandate, member text attributed to them', async () => {
      const p = await store().createPrincipal({
        handle: 'alice',
        status: 'member',
        displayName: 'Alice A.',
        headline: 'Builds boats',
      });
      assert.match(p.id, /^pr_/);
      assert.equal(p.handle, 'alice');
      assert.equal(p.status, 'member');
      assert.equal(p.acceptsQuestions, true);
      assertMemberText(p.displayName, 'Alice A.', 'alice');
      assertMemberText(p.headline, 'Builds boats', 'alice');
      assertMemberText(p.bio, '', 'alice');
      assert.deepEqual(await store().getMandate(p.id), normaliseMandate(defaultMandate()));
    });

    void it('tells an empty store from one with principals', async () => {
      assert.equal(await store().hasPrincipals(), false);
      await store().createPrincipal({ handle: 'alice', status: 'candidate', displayName: 'A' });
      assert.equal(await store().hasPrincipals(), true);
    });

    void it('refuses a second principal with the same handle and leaves no trace of it', async () => {
      await store().createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });
      await assert.rejects(
        store().createPrincipal({ handle: 'alice', status: 'candidate', displayName: 'B' }),
      );
      const all = await store().listPrincipals();
      assert.deepEqual(
        all.map((p) => [p.handle, p.status]),
        [['alice', 'member']],
      );
      const mandates = await store().sql.get('SELECT COUNT(*) AS n FROM mandates');
      assert.equal(mandates?.['n'], 1);
    });

    void it('finds by id and by handle, and returns null for unknown ones', async () => {
      const p = await store().createPrincipal({ handle: 'bob', status: 'candidate', displayName: 'Bob' });
      assert.equal((await store().getPrincipalById(p.id))?.handle, 'bob');
      assert.equal((await store().getPrincipalByHandle('bob'))?.id, p.id);
      assert.equal(await store().getPrincipalById('pr_missing'), null);
      assert.equal(await store().getPrincipalByHandle('nobody'), null);
    });

    void it('lists by handle in byte order and filters by status and by accepting questions', async () => {
      const s = store();
      await s.createPrincipal({ handle: 'ab', status: 'member', displayName: 'x' });
      await s.createPrincipal({
        handle: 'a_c',
        status: 'candidate',
        displayName: 'x',
        acceptsQuestions: false,
      });
      await s.createPrincipal({ handle: 'a-d', status: 'member', displayName: 'x', acceptsQuestions: false });
      await s.createPrincipal({ handle: 'b', status: 'suspended', displayName: 'x' });
      const handles = async (f?: Parameters<typeof s.listPrincipals>[0]) =>
        (await s.listPrincipals(f)).map((p) => p.handle);
      // Byte order on every backend, whatever the database's locale would say.
      assert.deepEqual(await handles(), ['a-d', 'a_c', 'ab', 'b']);
      assert.deepEqual(await handles({ status: 'member' }), ['a-d', 'ab']);
      assert.deepEqual(await handles({ acceptsQuestions: true }), ['ab', 'b']);
      assert.deepEqual(await handles({ acceptsQuestions: false }), ['a-d', 'a_c']);
      assert.deepEqual(await handles({ status: 'member', acceptsQuestions: true }), ['ab']);
      assert.deepEqual(await handles({ status: 'candidate', acceptsQuestions: true }), []);
    });

    void it('changes status and moves updatedAt', async () => {
      const p = await store().createPrincipal({ handle: 'carol', status: 'candidate', displayName: 'C' });
      await new Promise((r) => setTimeout(r, 5));
      await store().setPrincipalStatus(p.id, 'member');
      const after = await store().getPrincipalById(p.id);
      assert.equal(after?.status, 'member');
      assert.ok((after?.updatedAt ?? '') > p.updatedAt, 'updatedAt should move forward');
      assert.equal(after?.createdAt, p.createdAt);
    });

    void it('patches only the profile fields given', async () => {
      const p = await store().createPrincipal({
        handle: 'dan',
        status: 'member',
        displayName: 'Dan',
        headline: 'old headline',
        bio: 'old bio',
      });
      const patched = await store().updateProfile(p.id, {
        headline: 'new headline',
        acceptsQuestions: false,
      });
      assertMemberText(patched.displayName, 'Dan', 'dan');
      assertMemberText(patched.headline, 'new headline', 'dan');
      assertMemberText(patched.bio, 'old bio', 'dan');
      assert.equal(patched.acceptsQuestions, false);
      const again = await store().updateProfile(p.id, { bio: '', acceptsQuestions: true });
      assertMemberText(again.bio, '', 'dan');
      assertMemberText(again.headline, 'new headline', 'dan');
      assert.equal(again.acceptsQuestions, true);
    });
  });
}
