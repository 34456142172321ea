import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ctx } from '../../src/console/context.ts';
import { RateLimiter } from '../../src/console/rate-limit.ts';
import type { Granted, Route, Routed } from '../../src/console/route.ts';
import { ROUTES } from '../../src/console/routes.ts';
import type { SignedIn } from '../../src/console/session.ts';
import { access, loadSession, matchRoute } from '../../src/console/steps/access.ts';
import { assets, bareConsole, noBearer } from '../../src/console/steps/entry.ts';
import { runHandler } from '../../src/console/steps/handler.ts';
import { csrf, readForm, sameSite, signInRate } from '../../src/console/steps/post.ts';
import { fakeHttp, runStep } from '../helpers/fake-http.ts';

/**
 * Each step of the console's edge on its own, without a socket or a store: when it
 * answers (a refusal, a redirect, "not found"), the step after it, and so the page's
 * handler, never runs.
 */

const BASE = 'http://localhost:8787';
const CSRF = 'c'.repeat(43);
const session = (operator = false): SignedIn =>
  ({
    principal: { id: 'p1', handle: 'alice', operator, status: 'member' },
    csrf: CSRF,
    hash: 'h',
  }) as unknown as SignedIn;

function visit(init: Parameters<typeof fakeHttp>[0] = {}, signIns = new RateLimiter(20, 60_000)) {
  const { req, res, written } = fakeHttp(init);
  const u = new URL(init.url ?? '/console/', 'http://console.invalid');
  const ctx: Ctx = {
    req,
    res,
    deps: { now: () => new Date() } as unknown as Ctx['deps'],
    base: BASE,
    now: new Date(),
    path: u.pathname,
    query: u.searchParams,
    form: new URLSearchParams(),
    body: '',
    session: null,
    sessions: { idleMs: 60_000, maxMs: 3_600_000, secure: false },
    signIns,
  };
  return { ctx, written };
}

const route = (method: 'GET' | 'POST', path: string): Route => {
  const r = ROUTES.find((x) => x.method === method && x.path === path);
  assert.ok(r, `${method} ${path}`);
  return r;
};
const routed = (ctx: Ctx, r: Route, s: SignedIn | null = null): Routed =>
  Object.assign(ctx, { route: r, session: s });
const granted = (ctx: Ctx, r: Route, s: SignedIn | null): Granted =>
  r.access === 'public'
    ? Object.assign(ctx, { access: 'public' as const, route: r, session: s })
    : Object.assign(ctx, { access: 'signed-in' as const, route: r, session: s ?? session() });

describe('the console edge, step by step: an answer stops the request there', () => {
  it('bare-console: /console is sent to /console/', async () => {
    const { ctx, written } = visit({ url: '/console' });
    assert.equal((await runStep(bareConsole(), ctx)).next, false);
    assert.equal(written.status, 303);
    assert.equal(written.headers['location'], '/console/');
    assert.equal((await runStep(bareConsole(), visit({ url: '/console/' }).ctx)).next, true);
  });

  it('assets: its own files are served (GET); an unknown name goes on, to "not found"', async () => {
    const { ctx, written } = visit({ url: '/console/assets/console.css' });
    assert.equal((await runStep(assets(), ctx)).next, false);
    assert.equal(written.status, 200);
    assert.equal((await runStep(assets(), visit({ url: '/console/assets/nope.js' }).ctx)).next, true);
    assert.equal(
      (await runStep(assets(), visit({ url: '/console/assets/console.css', method: 'POST' }).ctx)).next,
      true,
    );
  });

  it('no-bearer: an agent token is refused (401), whatever the request', async () => {
    const { ctx, written } = visit({ url: '/console/signin', headers: { authorization: 'Bearer wdn_x' } });
    assert.equal((await runStep(noBearer(), ctx)).next, false);
    assert.equal(written.status, 401);
    assert.match(written.body, /agent_token_at_console/);
  });

  it('route: no route for the method and path is the one "not found"', async () => {
    const { ctx, written } = visit({ url: '/console/nothing' });
    assert.equal((await runStep(matchRoute(ROUTES), ctx)).next, false);
    assert.equal(written.status, 404);
    const post = visit({ url: '/console/mandate', method: 'PUT' });
    assert.equal((await runStep(matchRoute(ROUTES), post.ctx)).next, false);
    const ok = await runStep(matchRoute(ROUTES), visit({ url: '/console/oauth/abc_DEF-1' }).ctx);
    assert.equal(ok.next, true);
    assert.equal(ok.out?.route.access, 'public');
  });

  it('session: refuses nothing; without a cookie there is no session', async () => {
    const { ctx } = visit({ url: '/console/' });
    const on = await runStep(loadSession(), routed(ctx, route('GET', '/console/')));
    assert.equal(on.next, true);
    assert.equal(on.out?.session, null);
  });

  it('access: an operator page is "not found" to anyone else, byte for byte as a page that never existed', async () => {
    const missing = visit({ url: '/console/nothing' });
    await runStep(matchRoute(ROUTES), missing.ctx);
    for (const who of [null, session(false)]) {
      const { ctx, written } = visit({ url: '/console/operator' });
      assert.equal(
        (await runStep(access(), routed(ctx, route('GET', '/console/operator'), who))).next,
        false,
      );
      assert.equal(written.status, 404);
      assert.equal(written.body, missing.written.body);
    }
    const op = visit({ url: '/console/operator' });
    const on = await runStep(access(), routed(op.ctx, route('GET', '/console/operator'), session(true)));
    assert.equal(on.next, true);
    assert.equal(on.out?.access, 'signed-in');
  });

  it('access: a principal page without a session sends a GET to sign in and refuses a POST (401)', async () => {
    const get = visit({ url: '/console/tokens' });
    assert.equal((await runStep(access(), routed(get.ctx, route('GET', '/console/tokens')))).next, false);
    assert.equal(get.written.status, 303);
    assert.equal(get.written.headers['location'], '/console/signin');
    const post = visit({ url: '/console/tokens', method: 'POST' });
    assert.equal((await runStep(access(), routed(post.ctx, route('POST', '/console/tokens')))).next, false);
    assert.equal(post.written.status, 401);
    assert.match(post.written.body, /stale_form/);
  });

  it('access: a public page goes on with or without a session, told apart by type', async () => {
    for (const who of [null, session()]) {
      const { ctx } = visit({ url: '/console/signin' });
      const on = await runStep(access(), routed(ctx, route('GET', '/console/signin'), who));
      assert.equal(on.out?.access, 'public');
      assert.equal(on.out?.session, who);
    }
  });

  it('same-origin: a POST from another site is refused (403) before its body is read', async () => {
    const { ctx, written } = visit({
      url: '/console/link',
      method: 'POST',
      headers: { origin: 'http://evil.example' },
      body: 't=x',
    });
    assert.equal((await runStep(sameSite(), granted(ctx, route('POST', '/console/link'), null))).next, false);
    assert.equal(written.status, 403);
    assert.match(written.body, /cross_site_request/);
    const ours = visit({ url: '/console/link', method: 'POST', headers: { origin: BASE } });
    assert.equal(
      (await runStep(sameSite(), granted(ours.ctx, route('POST', '/console/link'), null))).next,
      true,
    );
    const get = visit({ url: '/console/signin', headers: { origin: 'http://evil.example' } });
    assert.equal(
      (await runStep(sameSite(), granted(get.ctx, route('GET', '/console/signin'), null))).next,
      true,
    );
  });

  it('sign-in-rate: sign-in attempts past the address’s rate are refused (429)', async () => {
    const limiter = new RateLimiter(1, 60_000);
    const first = visit({ url: '/console/link', method: 'POST' }, limiter);
    assert.equal(
      (await runStep(signInRate(), granted(first.ctx, route('POST', '/console/link'), null))).next,
      true,
    );
    const second = visit({ url: '/console/link', method: 'POST' }, limiter);
    assert.equal(
      (await runStep(signInRate(), granted(second.ctx, route('POST', '/console/link'), null))).next,
      false,
    );
    assert.equal(second.written.status, 429);
    // Not a sign-in: not counted.
    const other = visit({ url: '/console/tokens', method: 'POST' }, limiter);
    assert.equal(
      (await runStep(signInRate(), granted(other.ctx, route('POST', '/console/tokens'), session()))).next,
      true,
    );
  });

  it('form: a body over 64 KB is refused (413)', async () => {
    const { ctx, written } = visit({
      url: '/console/tokens',
      method: 'POST',
      body: 'x='.padEnd(70_000, 'y'),
    });
    assert.equal(
      (await runStep(readForm(), granted(ctx, route('POST', '/console/tokens'), session()))).next,
      false,
    );
    assert.equal(written.status, 413);
    assert.match(written.body, /form_too_large/);
    const ok = visit({ url: '/console/tokens', method: 'POST', body: 'label=a&_csrf=b' });
    const on = await runStep(readForm(), granted(ok.ctx, route('POST', '/console/tokens'), session()));
    assert.equal(on.out?.form.get('label'), 'a');
  });

  it('csrf: a signed-in POST without its session’s token is refused (403); a public one needs none', async () => {
    for (const sent of [null, 'wrong', CSRF.slice(1)]) {
      const { ctx, written } = visit({ url: '/console/tokens', method: 'POST' });
      if (sent !== null) ctx.form = new URLSearchParams({ _csrf: sent });
      assert.equal(
        (await runStep(csrf(), granted(ctx, route('POST', '/console/tokens'), session()))).next,
        false,
      );
      assert.equal(written.status, 403);
      assert.match(written.body, /stale_form/);
    }
    const json = visit({
      url: '/console/passkey/register/options',
      method: 'POST',
      headers: { 'x-csrf-token': 'no' },
    });
    const passkey = route('POST', '/console/passkey/register/options');
    assert.equal((await runStep(csrf(), granted(json.ctx, passkey, session()))).next, false);
    const right = visit({ url: '/console/tokens', method: 'POST' });
    right.ctx.form = new URLSearchParams({ _csrf: CSRF });
    assert.equal(
      (await runStep(csrf(), granted(right.ctx, route('POST', '/console/tokens'), session()))).next,
      true,
    );
    const pub = visit({ url: '/console/link', method: 'POST' });
    assert.equal((await runStep(csrf(), granted(pub.ctx, route('POST', '/console/link'), null))).next, true);
  });

  it('handler: a public page is given the session as it is; a signed-in page, its session', async () => {
    const seen: (SignedIn | null)[] = [];
    const pub: Route = { method: 'GET', path: '/p', access: 'public', run: (c) => void seen.push(c.session) };
    const own: Route = {
      method: 'GET',
      path: '/o',
      access: 'principal',
      run: (c) => void seen.push(c.session),
    };
    const s = session();
    await runHandler().run(granted(visit().ctx, pub, null));
    await runHandler().run(granted(visit().ctx, own, s));
    assert.deepEqual(seen, [null, s]);
  });
});
