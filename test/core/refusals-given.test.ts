// Refusals no other suite names by code: each is provoked once, against a real Warden with
// its console, and checked for its code, its status and that nothing was done.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { reissue } from '../../src/admin/decisions.ts';
import { staleOutcome } from '../../src/admin/stale.ts';
import { AdminRefusal } from '../../src/admin/errors.ts';
import { addPrincipal } from '../../src/admin/principals.ts';
import { startConsoleClub, Visitor, type ConsoleClub } from '../helpers/console.ts';

/** A GET with a Host header of our choosing (fetch does not let one be set). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

void describe('refusals given by code', () => {
  let club: ConsoleClub;

  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 1000 });
    await club.add('alice', 'member');
  });
  after(() => club.close());

  void it('forbidden_host: a Host this server does not serve gets a 403 and nothing else', async () => {
    const res = await getWithHost(`${club.base}/tiers`, 'evil.example');
    assert.equal(res.status, 403);
    assert.equal((JSON.parse(res.body) as { error: string }).error, 'forbidden_host');
    assert.doesNotMatch(res.body, /tools/, 'the tier catalogue was not served');
  });

  void it('method_not_allowed: a method the path does not answer gets a 405 naming the one it does', async () => {
    const res = await fetch(`${club.base}/tiers`, { method: 'PUT' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET');
    assert.deepEqual(await res.json(), { error: 'method_not_allowed' });
  });

  void it('form_too_large: a console form over its bound is refused before it is read as a form', async () => {
    const v = new Visitor(club.base);
    const res = await v.post('/console/link', { t: 'A'.repeat(70 * 1024) });
    assert.equal(res.status, 413);
    assert.match(await res.text(), /<code>form_too_large<\/code>/);
    assert.equal(v.cookie, '', 'no session');
  });

  void it('authorization_expired: a consent page for no pending authorization', async () => {
    const res = await new Visitor(club.base).get('/console/oauth/no-such-interaction');
    assert.equal(res.status, 404);
    assert.match(await res.text(), /<code>authorization_expired<\/code>/);
  });

  void it('passkey_rejected: a registration response that does not verify registers nothing', async () => {
    const v = new Visitor(club.base);
    await v.signInWith(await club.link('alice'));
    const csrf = await v.csrf();
    const post = (path: string, body: unknown) =>
      fetch(club.base + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: club.base,
          cookie: v.cookie,
          'x-csrf-token': csrf,
        },
        body: JSON.stringify(body),
      });
    assert.equal((await post('/console/passkey/register/options', {})).status, 200);
    const res = await post('/console/passkey/register/verify', {
      label: 'laptop',
      response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: {}, clientExtensionResults: {} },
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { refusal: { code: string } }).refusal.code, 'passkey_rejected');
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    assert.deepEqual(await club.store.listPasskeys(alice.id), []);
  });

  void it('invalid_handle: a handle outside the pattern creates no principal', async () => {
    await assert.rejects(
      addPrincipal(club.store, 'Not A Handle', { status: 'member' }),
      (err) => err instanceof AdminRefusal && err.code === 'invalid_handle',
    );
    assert.equal(await club.store.getPrincipalByHandle('Not A Handle'), null);
  });

  void it('not_stale: only a stale decision is re-issued; a pending one runs nothing', async () => {
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    const d = await club.store.createDecision({
      principalId: alice.id,
      tokenId: null,
      tool: 'update_profile',
      arguments: { headline: 'Changed without approval' },
      reasonCode: 'review_needs_approval',
      reason: 'test',
    });
    await assert.rejects(
      reissue({ store: club.store, registry: club.registry }, 'alice', d.id),
      (err) => err instanceof AdminRefusal && err.code === 'not_stale',
    );
    assert.equal((await club.store.getDecision(d.id))!.status, 'pending');
    assert.notEqual((await club.store.getPrincipalByHandle('alice'))!.headline, 'Changed without approval');
  });

  void it('stale_tool_gone and its kin: a closed decision records stale_ and the staleness code', () => {
    for (const code of ['token_revoked', 'token_expired', 'tool_gone', 'scope_lapsed'] as const) {
      const outcome = staleOutcome(code, 'Because.');
      assert.equal(outcome.ok, false);
      if (!outcome.ok) assert.equal(outcome.refusal.code, `stale_${code}`);
    }
    const gone = staleOutcome('tool_gone', 'The tool it asked for no longer exists.');
    assert.deepEqual(gone.ok ? null : gone.refusal.code, 'stale_tool_gone');
  });
});
