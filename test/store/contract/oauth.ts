import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DecisionOutcome, OAuthSaved, Store } from '../../../src/store/contract.ts';
import { FUTURE, useStore, type Backend } from './backend.ts';

const NOW = '2030-01-01T00:00:00.000Z';
const LATER = '2030-01-01T01:00:00.000Z';

const WITHDRAWN: DecisionOutcome = {
  ok: false,
  refusal: { code: 'stale_token_revoked', reason: 'The connection ended.', next: 'Nothing to do.' },
};

function record(model: string, id: string, grantId: string | null): OAuthSaved {
  return { model, id, payload: '{}', grantId, uid: null, expiresAt: FUTURE };
}

/** Connects a client as consent does: its grant saved with the token row, earlier connections ended. */
function connect(s: Store, principalId: string, clientId: string, grant: string, hash: string) {
  return s.connectOAuthClient({
    principalId,
    clientId,
    label: 'Agent',
    hash,
    scopes: ['inbox'],
    grant: record('Grant', grant, null),
    at: NOW,
    withdrawal: WITHDRAWN,
  });
}

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
      await s.oauthRevokeByGrant('g1', NOW);
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

    void it('a grant the library revokes marks its connection revoked and withdraws its queued requests, in one write', async () => {
      const s = store();
      const p = await s.createPrincipal({ handle: 'alice', status: 'member', displayName: 'Alice' });
      const t = await connect(s, p.id, 'client-a', 'g1', 'h1');
      const other = await connect(s, p.id, 'client-b', 'g2', 'h2');
      const queued = await s.createDecision({
        principalId: p.id,
        tokenId: t.id,
        tool: 'ask_agent',
        arguments: {},
        reasonCode: 'daily_limit',
        reason: 'over the limit',
      });
      await s.oauthRevokeByGrant('g1', NOW, WITHDRAWN);
      assert.equal((await s.getToken(t.id))?.revokedAt, NOW, 'the connection says revoked');
      assert.equal(await s.oauthFind('Grant', 'g1', NOW), null);
      const d = await s.getDecision(queued.id);
      assert.equal(d?.status, 'stale');
      assert.deepEqual(d?.outcome, WITHDRAWN);
      assert.equal((await s.getToken(other.id))?.revokedAt, null, 'another grant is untouched');
      // Revoked again (the library revokes each model of a grant): nothing changes.
      await s.oauthRevokeByGrant('g1', LATER, WITHDRAWN);
      assert.equal((await s.getToken(t.id))?.revokedAt, NOW);
    });

    void it('connecting a client again revokes the earlier connection, its grant and its queued requests, in one transaction', async () => {
      const s = store();
      const p = await s.createPrincipal({ handle: 'alice', status: 'member', displayName: 'Alice' });
      const first = await connect(s, p.id, 'client-a', 'g1', 'h1');
      await s.oauthSave(record('RefreshToken', 'r1', 'g1'));
      const elsewhere = await connect(s, p.id, 'client-b', 'g2', 'h2');
      const queued = await s.createDecision({
        principalId: p.id,
        tokenId: first.id,
        tool: 'ask_agent',
        arguments: {},
        reasonCode: 'daily_limit',
        reason: 'over the limit',
      });
      const second = await connect(s, p.id, 'client-a', 'g3', 'h3');
      assert.equal(second.origin, 'oauth');
      assert.equal(second.clientId, 'client-a');
      assert.deepEqual(second.scopes, ['inbox']);
      assert.equal(second.expiresAt, null);
      assert.equal((await s.findCredentialByGrant('g3'))?.token.id, second.id, 'bound to the new grant');
      assert.ok(await s.oauthFind('Grant', 'g3', NOW), 'the new grant is saved');
      assert.equal((await s.getToken(first.id))?.revokedAt, NOW, 'the earlier connection is revoked');
      assert.equal(await s.oauthFind('Grant', 'g1', NOW), null, 'with its grant');
      assert.equal(await s.oauthFind('RefreshToken', 'r1', NOW), null, 'and what the grant issued');
      assert.deepEqual((await s.getDecision(queued.id))?.outcome, WITHDRAWN);
      assert.equal((await s.getToken(elsewhere.id))?.revokedAt, null, "another client's connection stays");
      assert.ok(await s.oauthFind('Grant', 'g2', NOW));
    });

    void it('suspension ends every OAuth grant of the principal in the same write, and only theirs', async () => {
      const s = store();
      const p = await s.createPrincipal({ handle: 'alice', status: 'member', displayName: 'Alice' });
      const bob = await s.createPrincipal({ handle: 'bob', status: 'member', displayName: 'Bob' });
      const a1 = await connect(s, p.id, 'client-a', 'g1', 'h1');
      const a2 = await connect(s, p.id, 'client-b', 'g2', 'h2');
      await s.oauthSave(record('RefreshToken', 'r1', 'g1'));
      await s.oauthSave(record('AccessToken', 'a2', 'g2'));
      const staticToken = await s.insertToken({
        principalId: p.id,
        label: 'laptop',
        hash: 'h-s',
        scopes: ['inbox'],
        expiresAt: FUTURE,
      });
      const theirs = await connect(s, bob.id, 'client-a', 'g3', 'h3');
      const queued = await s.createDecision({
        principalId: p.id,
        tokenId: a1.id,
        tool: 'ask_agent',
        arguments: {},
        reasonCode: 'daily_limit',
        reason: 'over the limit',
      });
      await s.suspendPrincipal(p.id, NOW, WITHDRAWN);
      assert.equal((await s.getPrincipalById(p.id))?.status, 'suspended');
      for (const t of [a1, a2])
        assert.equal((await s.getToken(t.id))?.revokedAt, NOW, 'each connection revoked');
      for (const [model, id] of [
        ['Grant', 'g1'],
        ['Grant', 'g2'],
        ['RefreshToken', 'r1'],
        ['AccessToken', 'a2'],
      ] as const)
        assert.equal(await s.oauthFind(model, id, NOW), null, `${model} ${id} deleted`);
      assert.deepEqual((await s.getDecision(queued.id))?.outcome, WITHDRAWN);
      assert.equal(
        (await s.getToken(staticToken.id))?.revokedAt,
        null,
        'a static token waits for reinstatement',
      );
      assert.equal((await s.getToken(theirs.id))?.revokedAt, null, "another principal's connection stays");
      assert.ok(await s.oauthFind('Grant', 'g3', NOW));
      // Reinstated, nothing of the grants comes back.
      await s.setPrincipalStatus(p.id, 'member');
      assert.equal((await s.findCredentialByGrant('g1'))?.token.revokedAt, NOW);
      assert.equal(await s.oauthFind('Grant', 'g1', NOW), null);
    });

    void it('a connection that fails to write leaves nothing half-written', async () => {
      const s = store();
      const p = await s.createPrincipal({ handle: 'alice', status: 'member', displayName: 'Alice' });
      const first = await connect(s, p.id, 'client-a', 'g1', 'h1');
      const queued = await s.createDecision({
        principalId: p.id,
        tokenId: first.id,
        tool: 'ask_agent',
        arguments: {},
        reasonCode: 'daily_limit',
        reason: 'over the limit',
      });
      // The last statement (the token row) fails: its hash is taken.
      await assert.rejects(connect(s, p.id, 'client-a', 'g2', 'h1'));
      assert.equal((await s.getToken(first.id))?.revokedAt, null, 'the earlier connection is still live');
      assert.ok(await s.oauthFind('Grant', 'g1', NOW), 'with its grant');
      assert.equal(await s.oauthFind('Grant', 'g2', NOW), null, 'the new grant was not saved');
      assert.equal((await s.getDecision(queued.id))?.status, 'pending', 'its requests still queued');
      assert.equal((await s.listTokens(p.id)).length, 1);
    });
  });
}
