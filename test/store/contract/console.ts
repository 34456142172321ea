import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FUTURE, PAST, useStore, type Backend } from './backend.ts';

/** The console's records: operator role, one-time links, sessions, passkeys, challenges. */
export function consoleContract(backend: Backend): void {
  void describe('console records', () => {
    const store = useStore(backend);
    const NOW = '2026-06-01T12:00:00.000Z';
    const LATER = '2026-06-01T12:30:00.000Z';
    const principal = (handle: string) =>
      store().createPrincipal({ handle, status: 'member', displayName: handle });

    void it('grants and revokes the operator role', async () => {
      const p = await principal('olga');
      assert.equal(p.operator, false);
      await store().setOperator(p.id, true);
      assert.equal((await store().getPrincipalById(p.id))!.operator, true);
      assert.equal((await store().getPrincipalByHandle('olga'))!.operator, true);
      await store().setOperator(p.id, false);
      assert.equal((await store().getPrincipalById(p.id))!.operator, false);
    });

    void it('a sign-in link is consumed once, never after expiry, and unknown hashes say so', async () => {
      const p = await principal('alice');
      await store().createLoginLink({ hash: 'l1', principalId: p.id, expiresAt: LATER });
      assert.deepEqual(await store().consumeLoginLink('l1', NOW), { result: 'ok', principalId: p.id });
      assert.deepEqual(await store().consumeLoginLink('l1', NOW), { result: 'used' });
      await store().createLoginLink({ hash: 'l2', principalId: p.id, expiresAt: NOW });
      assert.deepEqual(await store().consumeLoginLink('l2', LATER), { result: 'expired' });
      assert.deepEqual(await store().consumeLoginLink('nope', NOW), { result: 'unknown' });
    });

    void it('two racing uses of one link: exactly one signs in', async () => {
      const p = await principal('alice');
      await store().createLoginLink({ hash: 'race', principalId: p.id, expiresAt: FUTURE });
      const results = await Promise.all([1, 2, 3].map(() => store().consumeLoginLink('race', NOW)));
      assert.equal(results.filter((r) => r.result === 'ok').length, 1);
    });

    void it('sessions: created, found by hash, touched, ended one by one or all of a principal', async () => {
      const a = await principal('alice');
      const b = await principal('bob');
      await store().createSession({ hash: 's1', principalId: a.id, csrf: 'c1', at: NOW, expiresAt: FUTURE });
      await store().createSession({ hash: 's2', principalId: a.id, csrf: 'c2', at: NOW, expiresAt: FUTURE });
      await store().createSession({ hash: 's3', principalId: b.id, csrf: 'c3', at: NOW, expiresAt: FUTURE });
      assert.deepEqual(await store().getSession('s1'), {
        principalId: a.id,
        csrf: 'c1',
        createdAt: NOW,
        lastSeenAt: NOW,
        expiresAt: FUTURE,
      });
      await store().touchSession('s1', LATER);
      assert.equal((await store().getSession('s1'))!.lastSeenAt, LATER);
      await store().deleteSession('s1');
      assert.equal(await store().getSession('s1'), null);
      assert.equal(await store().deleteSessionsOf(a.id), 1);
      assert.equal(await store().getSession('s2'), null);
      assert.ok(await store().getSession('s3'), "another principal's session is untouched");
    });

    void it('passkeys: added, listed per principal, used, removed only by their owner', async () => {
      const a = await principal('alice');
      const b = await principal('bob');
      const k = await store().addPasskey({
        id: 'cred-1',
        principalId: a.id,
        publicKey: 'pk',
        counter: 0,
        transports: ['internal'],
        label: 'laptop',
      });
      assert.equal(k.lastUsedAt, null);
      assert.deepEqual(k.transports, ['internal']);
      await assert.rejects(
        store().addPasskey({
          id: 'cred-1',
          principalId: b.id,
          publicKey: 'x',
          counter: 0,
          transports: [],
          label: 'x',
        }),
      );
      await store().usePasskey('cred-1', 7, NOW);
      const used = (await store().getPasskey('cred-1'))!;
      assert.equal(used.counter, 7);
      assert.equal(used.lastUsedAt, NOW);
      assert.equal((await store().listPasskeys(a.id)).length, 1);
      assert.equal((await store().listPasskeys(b.id)).length, 0);
      assert.equal(await store().deletePasskey('cred-1', b.id), false);
      assert.equal(await store().deletePasskey('cred-1', a.id), true);
      assert.equal(await store().getPasskey('cred-1'), null);
    });

    void it('a challenge is taken once, for its purpose, before it expires', async () => {
      const a = await principal('alice');
      await store().saveChallenge({ hash: 'ch1', purpose: 'register', principalId: a.id, expiresAt: FUTURE });
      assert.equal(await store().takeChallenge('ch1', 'signin', NOW), null, 'wrong purpose');
      assert.deepEqual(await store().takeChallenge('ch1', 'register', NOW), { principalId: a.id });
      assert.equal(await store().takeChallenge('ch1', 'register', NOW), null, 'taken already');
      await store().saveChallenge({ hash: 'ch2', purpose: 'signin', principalId: null, expiresAt: FUTURE });
      assert.equal(await store().takeChallenge('ch2', 'signin', '3000-01-01T00:00:00.000Z'), null, 'expired');
      await store().saveChallenge({ hash: 'ch3', purpose: 'signin', principalId: null, expiresAt: FUTURE });
      assert.deepEqual(await store().takeChallenge('ch3', 'signin', PAST), { principalId: null });
    });
  });
}
