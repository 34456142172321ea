import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FUTURE, useStore, type Backend } from './backend.ts';

const NOW = '2030-01-01T00:00:00.000Z';
const LATER = '2030-01-01T01:00:00.000Z';

export function oauthContract(backend: Backend): void {
  void describe('OAuth records and connections', () => {
    const store = useStore(backend);

    void it('saves, finds, updates, consumes and destroys a record; an expired one is not found', async () => {
      const s = store();
      await s.oauthSave({
        model: 'AuthorizationCode',
        id: 'c1',
        payload: '{"a":1}',
        grantId: 'g1',
        uid: null,
        expiresAt: LATER,
      });
      assert.deepEqual(await s.oauthFind('AuthorizationCode', 'c1', NOW), {
        payload: '{"a":1}',
        consumedAt: null,
      });
      assert.equal(await s.oauthFind('AuthorizationCode', 'c1', '2031-01-01T00:00:00.000Z'), null, 'expired');
      assert.equal(await s.oauthFind('AccessToken', 'c1', NOW), null, 'another model');
      await s.oauthSave({
        model: 'AuthorizationCode',
        id: 'c1',
        payload: '{"a":2}',
        grantId: 'g1',
        uid: null,
        expiresAt: LATER,
      });
      assert.equal((await s.oauthFind('AuthorizationCode', 'c1', NOW))?.payload, '{"a":2}');
      await s.oauthConsume('AuthorizationCode', 'c1', NOW);
      assert.equal((await s.oauthFind('AuthorizationCode', 'c1', NOW))?.consumedAt, NOW);
      await s.oauthDestroy('AuthorizationCode', 'c1');
      assert.equal(await s.oauthFind('AuthorizationCode', 'c1', NOW), null);
    });

    void it('expired records are swept as new ones are saved: the table holds what is live', async () => {
      const s = store();
      const past = '2000-01-01T00:00:00.000Z';
      for (let i = 0; i < 100; i++)
        await s.oauthSave({
          model: 'AccessToken',
          id: `old-${i}`,
          payload: '{}',
          grantId: null,
          uid: null,
          expiresAt: past,
        });
      for (let i = 0; i < 100; i++)
        await s.oauthSave({
          model: 'AccessToken',
          id: `new-${i}`,
          payload: '{}',
          grantId: null,
          uid: null,
          expiresAt: FUTURE,
        });
      const rows = await (s as unknown as { sql: { all(q: string): Promise<unknown[]> } }).sql.all(
        `SELECT id FROM oauth_records WHERE id LIKE 'old-%'`,
      );
      assert.equal(rows.length, 0);
      assert.ok(await s.oauthFind('AccessToken', 'new-99', NOW));
    });

    void it('finds by uid, and revoking a grant removes the grant and everything issued under it', async () => {
      const s = store();
      await s.oauthSave({
        model: 'Session',
        id: 's1',
        payload: '{"uid":"u1"}',
        grantId: null,
        uid: 'u1',
        expiresAt: null,
      });
      assert.equal((await s.oauthFindByUid('Session', 'u1', NOW))?.payload, '{"uid":"u1"}');
      await s.oauthSave({
        model: 'Grant',
        id: 'g1',
        payload: '{}',
        grantId: null,
        uid: null,
        expiresAt: null,
      });
      await s.oauthSave({
        model: 'AccessToken',
        id: 'a1',
        payload: '{}',
        grantId: 'g1',
        uid: null,
        expiresAt: LATER,
      });
      await s.oauthSave({
        model: 'RefreshToken',
        id: 'r1',
        payload: '{}',
        grantId: 'g1',
        uid: null,
        expiresAt: LATER,
      });
      await s.oauthSave({
        model: 'AccessToken',
        id: 'a2',
        payload: '{}',
        grantId: 'g2',
        uid: null,
        expiresAt: LATER,
      });
      await s.oauthRevokeByGrant('g1');
      assert.equal(await s.oauthFind('Grant', 'g1', NOW), null);
      assert.equal(await s.oauthFind('AccessToken', 'a1', NOW), null);
      assert.equal(await s.oauthFind('RefreshToken', 'r1', NOW), null);
      assert.ok(await s.oauthFind('AccessToken', 'a2', NOW), 'another grant is untouched');
    });

    void it('an OAuth connection is a token row: origin, client id, found by its grant, revoked with its records', async () => {
      const s = store();
      const p = await s.createPrincipal({ handle: 'alice', status: 'member', displayName: 'Alice' });
      const staticToken = await s.insertToken({
        principalId: p.id,
        label: 'laptop',
        hash: 'h-s',
        scopes: ['inbox'],
        expiresAt: FUTURE,
      });
      assert.equal(staticToken.origin, 'static');
      assert.equal(staticToken.clientId, null);
      const t = await s.insertToken({
        principalId: p.id,
        label: 'Agent',
        hash: 'h-o',
        scopes: ['inbox', 'consult'],
        expiresAt: null,
        origin: 'oauth',
        clientId: 'https://client.example/meta.json',
        grantId: 'g9',
      });
      assert.equal(t.origin, 'oauth');
      assert.equal(t.clientId, 'https://client.example/meta.json');
      const c = await s.findCredentialByGrant('g9');
      assert.equal(c?.token.id, t.id);
      assert.equal(c?.principal.handle, 'alice');
      assert.equal(await s.findCredentialByGrant('g-unknown'), null);
      await s.oauthSave({
        model: 'Grant',
        id: 'g9',
        payload: '{}',
        grantId: null,
        uid: null,
        expiresAt: null,
      });
      await s.oauthSave({
        model: 'RefreshToken',
        id: 'r9',
        payload: '{}',
        grantId: 'g9',
        uid: null,
        expiresAt: LATER,
      });
      assert.equal(await s.revokeToken(t.id, NOW), true);
      assert.equal(await s.oauthFind('Grant', 'g9', NOW), null, 'the grant goes with the token');
      assert.equal(await s.oauthFind('RefreshToken', 'r9', NOW), null);
      assert.ok((await s.findCredentialByGrant('g9'))?.token.revokedAt, 'and the row says revoked');
    });
  });
}
