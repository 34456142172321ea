// The console's defences at the HTTP level, against a real Warden: each refusal is
// checked for its status and message and for what did not happen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setStatus } from '../../src/admin/principals.ts';
import { spyOnHandler, rawPost } from '../helpers/club.ts';
import { startConsoleClub, Visitor, type ConsoleClub } from '../helpers/console.ts';

const MINUTE = 60_000;

void describe('console security', () => {
  let club: ConsoleClub;
  let clock = Date.now();

  before(async () => {
    club = await startConsoleClub({ now: () => new Date(clock), signInPerMinute: 1000 });
    await club.add('alice', 'member');
    await club.add('olga', 'member', { operator: true });
    await club.add('mallory', 'member');
  });
  after(() => club.close());

  const signedIn = async (handle: string) => {
    const v = new Visitor(club.base);
    const res = await v.signInWith(await club.link(handle));
    assert.equal(res.status, 303);
    return v;
  };

  void it('a link works once: opening it spends nothing, the second use is refused', async () => {
    const link = await club.link('alice');
    const v = new Visitor(club.base);
    for (let i = 0; i < 2; i++)
      assert.equal((await v.get(new URL(link).pathname + new URL(link).search)).status, 200);
    assert.equal((await v.signInWith(link)).status, 303);
    const again = new Visitor(club.base);
    const res = await again.signInWith(link);
    assert.equal(res.status, 400);
    assert.match(await res.text(), /used already[\s\S]*link_used/);
    assert.equal(again.cookie, '', 'no session for a spent link');
  });

  void it('an expired link and an unknown one are refused and start no session', async () => {
    const link = await club.link('alice', '15m');
    clock += 16 * MINUTE;
    const v = new Visitor(club.base);
    const res = await v.signInWith(link);
    assert.equal(res.status, 400);
    assert.match(await res.text(), /expired[\s\S]*link_expired/);
    const unknown = await v.post('/console/link', { t: 'A'.repeat(43) });
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /link_unknown/);
    assert.equal(v.cookie, '');
  });

  void it('session cookies: HttpOnly, SameSite=Strict, scoped to /console, a new id at every sign-in', async () => {
    const v = new Visitor(club.base);
    const res = await v.signInWith(await club.link('alice'));
    const set = res.headers.get('set-cookie')!;
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    assert.match(set, /Path=\/console/);
    assert.doesNotMatch(set, /Secure/, 'plain http: a Secure cookie would never come back');
    const first = v.cookie;
    await v.signInWith(await club.link('alice'));
    assert.notEqual(v.cookie, first);
    const old = new Visitor(club.base);
    old.cookie = first;
    assert.equal(
      (await old.get('/console/')).headers.get('location'),
      '/console/signin',
      'the replaced id is dead',
    );
  });

  void it('Secure is set when the public URL is https', async () => {
    const tls = await startConsoleClub({}, { https: true });
    try {
      await tls.add('alice', 'member');
      const v = new Visitor(tls.base.replace('https:', 'http:'));
      const res = await v.post(
        '/console/link',
        { t: new URL(await tls.link('alice')).searchParams.get('t')! },
        { origin: tls.base },
      );
      assert.equal(res.status, 303);
      assert.match(res.headers.get('set-cookie')!, /; Secure/);
    } finally {
      await tls.close();
    }
  });

  void it('session fixation: an id planted before sign-in never becomes a signed-in session', async () => {
    const attacker = await signedIn('mallory');
    const planted = attacker.cookie;
    const victim = new Visitor(club.base);
    victim.cookie = planted;
    await victim.signInWith(await club.link('alice'));
    assert.notEqual(victim.cookie, planted);
    const again = new Visitor(club.base);
    again.cookie = planted;
    assert.equal((await again.get('/console/')).status, 303, 'the planted session was ended, not upgraded');
    const forged = new Visitor(club.base);
    forged.cookie = `warden_console=${'x'.repeat(43)}`;
    assert.equal((await forged.get('/console/')).headers.get('location'), '/console/signin');
  });

  void it('a cross-site form post is refused before anything runs; so is a post without the CSRF token', async () => {
    const spy = spyOnHandler(club.registry, 'set_mandate');
    const v = await signedIn('alice');
    const csrf = await v.csrf();
    const form = { _csrf: csrf, intent: 'save', scope: 'inbox', mode: 'any', counterparts: '', daily: '3' };
    // Same site, other port: the SameSite cookie still travels, so Origin and the token must stop it.
    const evil = club.base.replace(/:\d+$/, ':1');
    const cross = await v.post('/console/mandate', form, { origin: evil });
    assert.equal(cross.status, 403);
    assert.match(await cross.text(), /cross_site_request/);
    const noOrigin = await v.post('/console/mandate', form, { origin: null });
    assert.equal(noOrigin.status, 403);
    const noToken = await v.post('/console/mandate', { ...form, _csrf: '' });
    assert.equal(noToken.status, 403);
    assert.match(await noToken.text(), /stale_form/);
    const otherSession = await signedIn('mallory');
    const wrongToken = await v.post('/console/mandate', { ...form, _csrf: await otherSession.csrf() });
    assert.equal(wrongToken.status, 403);
    assert.equal(spy.calls, 0, 'set_mandate never ran');
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    assert.equal((await club.store.getMandate(alice.id)).consult.dailyLimit, 20);
    const good = await v.post('/console/mandate', form);
    assert.equal(good.status, 303);
    assert.equal(spy.calls, 1);
    assert.equal((await club.store.getMandate(alice.id)).consult.dailyLimit, 3);
  });

  void it('an agent token at the console gets nothing, even beside a valid session cookie', async () => {
    const { token } = await club.issue('alice');
    const v = await signedIn('alice');
    for (const cookie of ['', v.cookie]) {
      const res = await fetch(`${club.base}/console/`, {
        redirect: 'manual',
        headers: { authorization: `Bearer ${token}`, ...(cookie ? { cookie } : {}) },
      });
      assert.equal(res.status, 401);
      const text = await res.text();
      assert.match(text, /agent_token_at_console/);
      assert.doesNotMatch(text, /@alice/);
    }
  });

  void it('a console cookie at /mcp gets nothing: the anonymous tier, and /diagnose says so', async () => {
    const v = await signedIn('alice');
    const res = await rawPost(
      club.server.mcpUrl,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      { cookie: v.cookie },
    );
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result: { tools: { name: string }[] } };
    assert.deepEqual(body.result.tools.map((t) => t.name).sort(), [
      'club_info',
      'get_profile',
      'list_members',
    ]);
    const d = (await (await fetch(`${club.base}/diagnose`, { headers: { cookie: v.cookie } })).json()) as {
      tier: string;
    };
    assert.equal(d.tier, 'anonymous');
  });

  void it('operator pages answer a non-operator exactly like a page that never existed, and run nothing', async () => {
    const v = await signedIn('alice');
    const never = await v.get('/console/no-such-page');
    const expected = { status: never.status, body: await never.text() };
    assert.equal(expected.status, 404);
    for (const path of ['/console/operator', '/console/operator/principal?h=mallory']) {
      const res = await v.get(path);
      assert.deepEqual({ status: res.status, body: await res.text() }, expected, path);
    }
    const csrf = await v.csrf();
    const post = await v.post('/console/operator/status', {
      _csrf: csrf,
      handle: 'mallory',
      action: 'suspend',
      confirm: 'yes',
    });
    const unknownPost = await v.post('/console/no-such-action', { _csrf: csrf });
    assert.deepEqual(
      { status: post.status, body: await post.text() },
      { status: unknownPost.status, body: await unknownPost.text() },
    );
    assert.equal((await club.store.getPrincipalByHandle('mallory'))!.status, 'member');
    const op = await signedIn('olga');
    assert.equal((await op.get('/console/operator')).status, 200);
  });

  void it('clickjacking and content headers on every answer', async () => {
    const v = await signedIn('olga');
    for (const path of [
      '/console/',
      '/console/signin',
      '/console/operator',
      '/console/nope',
      '/console/assets/console.css',
    ]) {
      const res = await v.get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
    }
  });

  void it('sign-out ends the session on the server, not only in the browser', async () => {
    const v = await signedIn('alice');
    const cookie = v.cookie;
    assert.equal((await v.post('/console/signout', { _csrf: await v.csrf() })).status, 303);
    const replay = new Visitor(club.base);
    replay.cookie = cookie;
    assert.equal((await replay.get('/console/')).headers.get('location'), '/console/signin');
  });

  void it('idle and absolute expiry', async () => {
    const v = await signedIn('alice');
    clock += 29 * MINUTE;
    assert.equal((await v.get('/console/')).status, 200, 'within the idle time');
    clock += 31 * MINUTE;
    assert.equal((await v.get('/console/')).status, 303, 'idle for over 30 minutes');
    const w = await signedIn('alice');
    for (let i = 0; i < 28; i++) {
      clock += 25 * MINUTE;
      assert.equal((await w.get('/console/')).status, 200, 'active: never idle');
    }
    clock += 25 * MINUTE;
    assert.equal((await w.get('/console/')).status, 303, 'past the absolute 12 hours, however active');
  });

  void it('suspension ends every console session of the principal at once', async () => {
    await club.add('sam', 'member');
    const a = await signedIn('sam');
    const b = await signedIn('sam');
    const sam = (await club.store.getPrincipalByHandle('sam'))!;
    await setStatus(club.store, 'sam', 'suspended');
    for (const v of [a, b]) assert.equal((await v.get('/console/')).status, 303);
    const refused = await new Visitor(club.base).signInWith(await club.link('alice'));
    assert.equal(refused.status, 303);
    await assert.rejects(club.link('sam'), /suspended/);
    assert.equal((await club.store.listPasskeys(sam.id)).length, 0);
  });
});

void describe('console passkeys over HTTP', () => {
  let club: ConsoleClub;
  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 1000 });
    await club.add('alice', 'member');
    await club.add('bob', 'member');
  });
  after(() => club.close());

  const json = (v: Visitor, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(club.base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: club.base, cookie: v.cookie, ...headers },
      body: JSON.stringify(body),
    });

  void it('the ceremony endpoints check Origin and, signed in, the CSRF header; options name this host', async () => {
    const v = new Visitor(club.base);
    await v.signInWith(await club.link('alice'));
    const csrf = await v.csrf();
    assert.equal((await json(v, '/console/passkey/register/options', {})).status, 403, 'no CSRF header');
    const options = await json(v, '/console/passkey/register/options', {}, { 'x-csrf-token': csrf });
    assert.equal(options.status, 200);
    const o = (await options.json()) as { rp: { id: string }; challenge: string; user: { name: string } };
    assert.equal(o.rp.id, 'localhost');
    assert.equal(o.user.name, 'alice');
    assert.ok(o.challenge.length >= 16);
    const cross = await json(v, '/console/passkey/signin/options', {}, { origin: 'http://localhost:1' });
    assert.equal(cross.status, 403);
    assert.equal((await json(new Visitor(club.base), '/console/passkey/signin/options', {})).status, 200);
  });

  void it('a passkey is removed only by its owner, and a removed one signs nobody in', async () => {
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    const fields = { publicKey: 'x', counter: 0, transports: [], label: 'laptop' };
    await club.store.addPasskey({ id: 'cred-alice', principalId: alice.id, ...fields });
    const bob = new Visitor(club.base);
    await bob.signInWith(await club.link('bob'));
    const theft = await bob.post('/console/passkeys/remove', { _csrf: await bob.csrf(), id: 'cred-alice' });
    assert.equal(theft.status, 400);
    assert.match(await theft.text(), /not one of yours/);
    assert.ok(await club.store.getPasskey('cred-alice'));
    const owner = new Visitor(club.base);
    await owner.signInWith(await club.link('alice'));
    const removed = await owner.post('/console/passkeys/remove', {
      _csrf: await owner.csrf(),
      id: 'cred-alice',
    });
    assert.equal(removed.headers.get('location'), '/console/passkeys?done=removed');
    assert.equal(await club.store.getPasskey('cred-alice'), null);
    const stranger = new Visitor(club.base);
    const res = await json(stranger, '/console/passkey/signin/verify', { id: 'cred-alice', response: {} });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { refusal: { code: string } }).refusal.code, 'passkey_unknown');
    assert.equal(res.headers.get('set-cookie'), null, 'no session');
  });
});

void describe('console sign-in rate limit', () => {
  let club: ConsoleClub;
  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 3 });
    await club.add('alice', 'member');
  });
  after(() => club.close());

  void it('refuses sign-in attempts past the limit with 429, before looking at the link', async () => {
    const v = new Visitor(club.base);
    for (let i = 0; i < 3; i++)
      assert.equal((await v.post('/console/link', { t: 'B'.repeat(43) })).status, 400);
    const link = await club.link('alice');
    const res = await v.signInWith(link);
    assert.equal(res.status, 429);
    assert.match(await res.text(), /too_many_attempts/);
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    assert.ok(alice);
    // The refused attempt did not spend the link.
    const hash = (await import('../../src/admin/console-links.ts')).hashSecret(
      new URL(link).searchParams.get('t')!,
    );
    assert.equal((await club.store.consumeLoginLink(hash, new Date().toISOString())).result, 'ok');
  });
});
