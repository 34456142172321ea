import { defaultMandate } from '../../../src/core/mandate.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMemberText, FUTURE, useStore, type Backend } from './backend.ts';

export function tokenContract(backend: Backend): void {
  void describe('tokens', () => {
    const store = useStore(backend);

    const principal = (handle: string) =>
      store().createPrincipal({ handle, status: 'member', displayName: handle });
    const token = (principalId: string, hash: string, label = 'laptop') =>
      store().insertToken({ principalId, label, hash, scopes: ['inbox', 'consult'], expiresAt: FUTURE });

    void it('inserts a token and reads it back unused and unrevoked', async () => {
      const p = await principal('alice');
      const t = await token(p.id, 'h-1');
      assert.match(t.id, /^tok_/);
      assert.equal(t.principalId, p.id);
      assertMemberText(t.label, 'laptop', 'alice');
      assert.deepEqual(t.scopes, ['inbox', 'consult']);
      assert.equal(t.expiresAt, FUTURE);
      assert.equal(t.revokedAt, null);
      assert.equal(t.lastUsedAt, null);
      assert.deepEqual(await store().getToken(t.id), t);
      assert.equal(await store().getToken('tok_missing'), null);
    });

    void it('finds a credential by hash: the token, its principal and the current mandate', async () => {
      const p = await principal('alice');
      const t = await token(p.id, 'h-1');
      await store().setMandate(p.id, {
        ...defaultMandate(),
        scopes: ['inbox'],
        consult: { counterparts: 'any', dailyLimit: 3 },
        reviewsNeedApproval: true,
      });
      const c = await store().findCredential('h-1');
      assert.ok(c);
      assert.deepEqual(c.token, t);
      // Who and in which standing, nothing the member wrote: that is read where a tool shows it.
      assert.deepEqual(c.principal, { id: p.id, handle: 'alice', status: 'member' });
      assert.deepEqual(c.mandate.scopes, ['inbox']);
      assert.equal(c.mandate.consult.dailyLimit, 3);
      assert.equal(await store().findCredential('h-unknown'), null);
    });

    void it('fails closed when the principal has no mandate row', async () => {
      const p = await principal('alice');
      await token(p.id, 'h-1');
      await store().sql.run('DELETE FROM mandates WHERE principal_id = ?', [p.id]);
      const c = await store().findCredential('h-1');
      assert.deepEqual(c?.mandate.scopes, []);
      assert.equal(c?.mandate.consult.dailyLimit, 0);
    });

    void it('refuses a second token with the same hash', async () => {
      const p = await principal('alice');
      await token(p.id, 'h-1');
      await assert.rejects(token(p.id, 'h-1', 'other'));
      assert.equal((await store().listTokens(p.id)).length, 1);
    });

    void it('revokes only once, keeping the first revocation time', async () => {
      const p = await principal('alice');
      const t = await token(p.id, 'h-1');
      assert.equal(await store().revokeToken(t.id, '2030-01-01T00:00:00.000Z'), true);
      assert.equal(await store().revokeToken(t.id, '2031-01-01T00:00:00.000Z'), false);
      assert.equal((await store().getToken(t.id))?.revokedAt, '2030-01-01T00:00:00.000Z');
      assert.equal(await store().revokeToken('tok_missing', '2030-01-01T00:00:00.000Z'), false);
    });

    void it('records the last use', async () => {
      const p = await principal('alice');
      const t = await token(p.id, 'h-1');
      await store().touchToken(t.id, '2030-02-02T00:00:00.000Z');
      assert.equal((await store().getToken(t.id))?.lastUsedAt, '2030-02-02T00:00:00.000Z');
      await store().touchToken(t.id, '2030-02-03T00:00:00.000Z');
      assert.equal((await store().findCredential('h-1'))?.token.lastUsedAt, '2030-02-03T00:00:00.000Z');
    });

    void it("lists one principal's tokens only, in issue order", async () => {
      const a = await principal('alice');
      const b = await principal('bob');
      const t1 = await token(a.id, 'h-1', 'first');
      await new Promise((r) => setTimeout(r, 5));
      const t2 = await token(a.id, 'h-2', 'second');
      await token(b.id, 'h-3', 'bobs');
      assert.deepEqual(
        (await store().listTokens(a.id)).map((t) => t.id),
        [t1.id, t2.id],
      );
      assert.deepEqual(await store().listTokens('pr_missing'), []);
    });
  });
}
