import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, type AccessTokenUse } from '../../src/server/auth.ts';
import { mcpEdge } from '../../src/server/edge.ts';
import { createFastPath } from '../../src/server/fast-path.ts';
import { silentLogger } from '../../src/server/log.ts';
import type { RateGate } from '../../src/server/rate-limit.ts';
import { authenticateCaller } from '../../src/server/steps/authenticate.ts';
import { readBounded } from '../../src/server/steps/body.ts';
import { refuseRejectedCredential } from '../../src/server/steps/credential.ts';
import { diagnose } from '../../src/server/steps/diagnose.ts';
import {
  exchange,
  type Admitted,
  type Authenticated,
  type Parsed,
  type Served,
  type Site,
  type WithBody,
} from '../../src/server/steps/exchange.ts';
import { fastPath } from '../../src/server/steps/fast-path.ts';
import { hostGuard } from '../../src/server/steps/host.ts';
import { mcpPathsOnly } from '../../src/server/steps/mcp-paths.ts';
import { consoleMount, oauthEndpoints } from '../../src/server/steps/mounts.ts';
import { originGuard } from '../../src/server/steps/origin.ts';
import { postOnly } from '../../src/server/steps/post-only.ts';
import { toPublicOrigin } from '../../src/server/steps/public-origin.ts';
import { healthz, protectedResource, tiers } from '../../src/server/steps/public-docs.ts';
import { rateLimit } from '../../src/server/steps/rate-limit.ts';
import { screen } from '../../src/server/steps/screen.ts';
import { sdk } from '../../src/server/steps/sdk.ts';
import { requireSignIn } from '../../src/server/steps/sign-in.ts';
import { stepUp } from '../../src/server/steps/step-up.ts';
import type { Store } from '../../src/store/contract.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { fakeHttp, runStep } from '../helpers/fake-http.ts';

/**
 * Each step of the /mcp edge on its own, without a socket or a store: when it answers
 * (a refusal, or a side endpoint served), the step after it never runs; when it hands
 * the request on, the next step sees what it learned.
 */

const registry = buildRegistry();
const noStore = {} as Store;
const site = (): Site => ({
  base: 'http://127.0.0.1:8787',
  guard: { loopbackOnly: true, allowedOrigins: [], allowedHosts: [] },
});
const limiter = (ok: boolean): RateGate => ({
  take: () => (ok ? { ok: true } : { ok: false, retryAfterSeconds: 7, rate: { perSecond: 1, burst: 2 } }),
});
const oauthEdge = (handled: string[]) => ({
  owns: (path: string) => path === '/token',
  handle: async (req: IncomingMessage, res: ServerResponse) => {
    handled.push(req.url ?? '');
    res.writeHead(200).end();
  },
  resolve: async (): Promise<AccessTokenUse> => ({ kind: 'unknown' }),
  issuer: (base: string) => base,
});

type Init = Parameters<typeof fakeHttp>[0];
const at = (init: Init) => {
  const http = fakeHttp(init);
  return { x: exchange(http.req, http.res), written: http.written };
};
const anonymous = async (): Promise<Admitted> => {
  const auth = await authenticate(noStore, undefined, new Date());
  assert.equal(auth.kind, 'anonymous');
  return auth as Admitted;
};
/** An agent as far as the steps after authentication look: its token id and its permissions. */
const agent = (async () => {
  const anon = await anonymous();
  return {
    kind: 'agent',
    caller: anon.caller,
    credential: { token: { id: 'tok_1' } },
  } as unknown as Admitted;
})();
const served = async (init: Init, auth?: Admitted) => {
  const { x, written } = at(init);
  return { x: Object.assign(x, { auth: auth ?? (await anonymous()) }) as Served, written };
};
const json = (w: { body: string }) => JSON.parse(w.body) as Record<string, unknown>;

describe('the /mcp edge, step by step: an answer stops the request there', () => {
  it('lists its steps in the order that is its security model', () => {
    const edge = mcpEdge({
      site: site(),
      store: noStore,
      registry,
      version: 'test',
      now: () => new Date(),
      limiter: limiter(true),
      maxBody: 1024,
      anonymousMaxBody: 64,
      requireSignIn: false,
      oauth: undefined,
      console: undefined,
      fast: null,
      sdk: async () => {},
    });
    assert.deepEqual(edge.steps, [
      'host',
      'origin',
      'protected-resource-metadata',
      'tiers',
      'healthz',
      'public-origin',
      'oauth',
      'console',
      'mcp-paths-only',
      'authenticate',
      'rate-limit',
      'rejected-credential',
      'diagnose',
      'require-sign-in',
      'post-only',
      'read-body',
      'screen',
      'count-messages',
      'step-up',
      'fast-path',
      'sdk',
    ]);
  });

  it('host: a Host other than loopback on a loopback bind is 403, and nothing after runs', async () => {
    const s = site();
    const step = hostGuard(s);
    for (const host of ['attacker.example:8787', 'attacker.example:8787', undefined]) {
      const { x, written } = at({ url: '/mcp', headers: host ? { host } : {} });
      assert.equal((await runStep(step, x)).next, false, String(host));
      assert.equal(written.status, 403);
      assert.equal(json(written)['error'], 'forbidden_host');
    }
    assert.equal((await runStep(step, at({ url: '/mcp', headers: { host: 'localhost:1' } }).x)).next, true);
    // The verdict kept per Host is made again under a new guard (the public URL, known at listen).
    s.guard = { ...s.guard, allowedHosts: ['attacker.example'] };
    const later = at({ url: '/mcp', headers: { host: 'attacker.example:8787' } });
    assert.equal((await runStep(step, later.x)).next, true);
  });

  it('origin: a foreign Origin is 403, and nothing after runs', async () => {
    const { x, written } = at({ url: '/tiers', headers: { origin: 'http://evil.example' } });
    assert.equal((await runStep(originGuard(site()), x)).next, false);
    assert.equal(written.status, 403);
    assert.equal(json(written)['error'], 'forbidden_origin');
    assert.equal((await runStep(originGuard(site()), at({ url: '/tiers' }).x)).next, true);
  });

  it('the public documents answer at their paths (405 to other methods), and nothing after runs', async () => {
    const cases = [
      [protectedResource(site(), undefined), '/.well-known/oauth-protected-resource/mcp', 'GET', 200],
      [protectedResource(site(), undefined), '/.well-known/oauth-protected-resource', 'POST', 405],
      [tiers(registry, 'test'), '/tiers', 'GET', 200],
      [tiers(registry, 'test'), '/tiers', 'DELETE', 405],
      [healthz(), '/healthz', 'GET', 200],
      [healthz(), '/healthz', 'HEAD', 200],
      [healthz(), '/healthz', 'TRACE', 405],
    ] as const;
    for (const [step, url, method, status] of cases) {
      const { x, written } = at({ url, method });
      assert.equal((await runStep(step, x)).next, false, `${step.name} ${method} ${url}`);
      assert.equal(written.status, status, `${step.name} ${method} ${url}`);
      if (status === 405) assert.match(written.headers['allow'] ?? '', /^GET/);
      assert.equal((await runStep(step, at({ url: '/mcp', method }).x)).next, true, step.name);
    }
  });

  it('public-origin: a person’s page asked for at another name is sent to the public origin, unspent; agents’ paths pass', async () => {
    const s = { ...site(), base: 'http://localhost:8787' };
    const forPeople = (path: string) => path.startsWith('/console/') || path === '/token';
    for (const [method, url] of [
      ['GET', '/console/login?t=abc'],
      ['POST', '/console/login'],
      ['GET', '/token?x=1'],
    ] as const) {
      const { x, written } = at({ url, method, headers: { host: '127.0.0.1:8787' } });
      assert.equal((await runStep(toPublicOrigin(s, forPeople), x)).next, false, `${method} ${url}`);
      assert.equal(written.status, 307);
      assert.equal(written.headers['location'], `http://localhost:8787${url}`);
      assert.equal(written.headers['cache-control'], 'no-store');
    }
    for (const [url, host] of [
      ['/console/login?t=abc', 'localhost:8787'],
      ['/mcp', '127.0.0.1:8787'],
      ['/tiers', '127.0.0.1:8787'],
    ] as const) {
      assert.equal(
        (await runStep(toPublicOrigin(s, forPeople), at({ url, headers: { host } }).x)).next,
        true,
        url,
      );
    }
  });

  it('oauth: its paths go to the authorization server; a POST over the rate is 429 and reaches nothing', async () => {
    const handled: string[] = [];
    const refused = at({ url: '/token', method: 'POST' });
    assert.equal(
      (await runStep(oauthEndpoints(oauthEdge(handled), limiter(false), site()), refused.x)).next,
      false,
    );
    assert.equal(refused.written.status, 429);
    assert.equal(refused.written.headers['retry-after'], '7');
    assert.deepEqual(handled, [], 'the authorization server never saw the refused post');
    const ok = at({ url: '/token', method: 'POST' });
    assert.equal(
      (await runStep(oauthEndpoints(oauthEdge(handled), limiter(true), site()), ok.x)).next,
      false,
    );
    assert.deepEqual(handled, ['/token']);
    const other = at({ url: '/mcp', method: 'POST' });
    assert.equal(
      (await runStep(oauthEndpoints(oauthEdge(handled), limiter(true), site()), other.x)).next,
      true,
    );
  });

  it('console: /console and below go to the console, and nothing after runs', async () => {
    const seen: string[] = [];
    const mounted = async (req: IncomingMessage) => void seen.push(req.url ?? '');
    for (const url of ['/console', '/console/tokens?x=1']) {
      assert.equal((await runStep(consoleMount(mounted, site()), at({ url }).x)).next, false, url);
    }
    assert.deepEqual(seen, ['/console', '/console/tokens?x=1']);
    assert.equal((await runStep(consoleMount(mounted, site()), at({ url: '/consoles' }).x)).next, true);
    assert.equal((await runStep(consoleMount(undefined, site()), at({ url: '/console/' }).x)).next, true);
  });

  it('mcp-paths-only: any other path is a JSON 404, and nothing after runs (authentication included)', async () => {
    const { x, written } = at({ url: '/nothing?x=1' });
    assert.equal((await runStep(mcpPathsOnly(), x)).next, false);
    assert.equal(written.status, 404);
    assert.deepEqual(json(written), {
      error: 'not_found',
      error_description: 'Nothing at /nothing. MCP is served at /mcp.',
    });
    for (const url of ['/mcp', '/diagnose'])
      assert.equal((await runStep(mcpPathsOnly(), at({ url }).x)).next, true);
  });

  it('authenticate: refuses nothing itself; it hands on who is asking, a rejected credential included', async () => {
    const step = authenticateCaller(noStore, () => new Date(), undefined, site());
    const bad = await runStep(step, at({ url: '/mcp', headers: { authorization: 'Basic eDp5' } }).x);
    assert.equal(bad.next, true);
    assert.equal(bad.out?.auth.kind, 'rejected');
    const none = await runStep(step, at({ url: '/mcp' }).x);
    assert.equal(none.out?.auth.kind, 'anonymous');
  });

  it('rate-limit: over the limit is 429 with Retry-After, and nothing after runs', async () => {
    for (const auth of [await anonymous(), await agent]) {
      const { x, written } = await served({ url: '/mcp', method: 'POST' }, auth);
      assert.equal((await runStep(rateLimit(limiter(false)), x as Authenticated)).next, false);
      assert.equal(written.status, 429);
      assert.equal(written.headers['retry-after'], '7');
      assert.equal(
        (json(written)['error'] as { data: { limit: string } }).data.limit,
        auth.kind === 'agent' ? 'token' : 'anonymous',
      );
    }
    const ok = await served({ url: '/mcp' });
    assert.equal((await runStep(rateLimit(limiter(true)), ok.x as Authenticated)).next, true);
    // A limiter that answers later (the shared one, in the store) is waited for.
    const later: RateGate = {
      take: async () => ({ ok: false, retryAfterSeconds: 1, rate: { perSecond: 1, burst: 1 } }),
    };
    const slow = await served({ url: '/mcp' });
    assert.equal((await runStep(rateLimit(later), slow.x as Authenticated)).next, false);
    assert.equal(slow.written.status, 429);
  });

  it('rejected-credential: a bad credential is a 401 with the challenge, never anonymous', async () => {
    const { x, written } = at({ url: '/mcp', headers: { authorization: 'Bearer ' } });
    const auth = await authenticate(noStore, 'Bearer ', new Date());
    assert.equal((await runStep(refuseRejectedCredential(site()), Object.assign(x, { auth }))).next, false);
    assert.equal(written.status, 401);
    assert.equal(json(written)['reason'], 'malformed');
    assert.match(written.headers['www-authenticate'] ?? '', /^Bearer realm="warden", error="invalid_token"/);
    assert.match(
      written.headers['www-authenticate'] ?? '',
      /resource_metadata="http:\/\/127\.0\.0\.1:8787\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    const ok = await served({ url: '/mcp' });
    assert.equal((await runStep(refuseRejectedCredential(site()), ok.x as Authenticated)).next, true);
  });

  it('diagnose: /diagnose is answered here (405 but to GET), and nothing after runs', async () => {
    const get = await served({ url: '/diagnose' });
    assert.equal((await runStep(diagnose(registry), get.x)).next, false);
    assert.equal(get.written.status, 200);
    assert.equal(json(get.written)['tier'], 'anonymous');
    const post = await served({ url: '/diagnose', method: 'POST' });
    assert.equal((await runStep(diagnose(registry), post.x)).next, false);
    assert.equal(post.written.status, 405);
    assert.equal((await runStep(diagnose(registry), (await served({ url: '/mcp' })).x)).next, true);
  });

  it('require-sign-in: without a credential, 401 sign_in_required when the server has no anonymous tier', async () => {
    const { x, written } = await served({ url: '/mcp', method: 'POST' });
    assert.equal((await runStep(requireSignIn(true, site()), x)).next, false);
    assert.equal(written.status, 401);
    assert.equal(json(written)['reason'], 'sign_in_required');
    assert.equal((await runStep(requireSignIn(false, site()), (await served({ url: '/mcp' })).x)).next, true);
    assert.equal(
      (await runStep(requireSignIn(true, site()), (await served({ url: '/mcp' }, await agent)).x)).next,
      true,
    );
  });

  it('require-sign-in: at /mcp/sign-in, 401 without a credential even with the anonymous tier on; an agent passes', async () => {
    const { x, written } = await served({ url: '/mcp/sign-in', method: 'POST' });
    assert.equal((await runStep(requireSignIn(false, site()), x)).next, false);
    assert.equal(written.status, 401);
    assert.equal(json(written)['reason'], 'sign_in_required');
    assert.match(String(json(written)['error_description']), /this address: it is for clients that sign in/);
    assert.match(
      written.headers['www-authenticate'] ?? '',
      /resource_metadata="[^"]+\/oauth-protected-resource\/mcp"/,
    );
    assert.equal(
      (await runStep(requireSignIn(false, site()), (await served({ url: '/mcp/sign-in' }, await agent)).x))
        .next,
      true,
    );
  });

  it('mcp-paths-only: /mcp/sign-in goes on only on a server that is its own authorization server', async () => {
    assert.equal((await runStep(mcpPathsOnly(true), at({ url: '/mcp/sign-in' }).x)).next, true);
    const { x, written } = at({ url: '/mcp/sign-in' });
    assert.equal((await runStep(mcpPathsOnly(false), x)).next, false);
    assert.equal(written.status, 404);
    assert.equal((await runStep(mcpPathsOnly(true), at({ url: '/mcp/other' }).x)).next, false);
  });

  it('post-only: every method but POST is 405 with Allow: POST in the SDK’s words, and nothing after runs', async () => {
    for (const method of ['GET', 'DELETE', 'TRACE', 'PUT', 'PROPFIND', 'OPTIONS']) {
      const { x, written } = await served({ url: '/mcp', method });
      assert.equal((await runStep(postOnly(), x)).next, false, method);
      assert.equal(written.status, 405, method);
      assert.equal(written.headers['allow'], 'POST', method);
      assert.deepEqual(json(written), {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed.' },
        id: null,
      });
    }
    assert.equal((await runStep(postOnly(), (await served({ url: '/mcp', method: 'POST' })).x)).next, true);
  });

  it('read-body: a body over the caller’s bound is 413 and the connection closes; nothing after runs', async () => {
    const big = 'x'.repeat(65);
    const anon = await served({ url: '/mcp', method: 'POST', body: big });
    assert.equal((await runStep(readBounded(1024, 64), anon.x)).next, false);
    assert.equal(anon.written.status, 413);
    assert.equal(anon.written.headers['connection'], 'close');
    // The same body under a credential's (larger) bound goes on, read whole.
    const member = await served({ url: '/mcp', method: 'POST', body: big }, await agent);
    const on = await runStep(readBounded(1024, 64), member.x);
    assert.equal(on.next, true);
    assert.equal(on.out?.raw.toString(), big);
    // A body already in whole is taken at once, without waiting, under the same bounds.
    for (const [auth, status] of [
      [await anonymous(), 413],
      [await agent, null],
    ] as const) {
      const arrived = await served({ url: '/mcp', method: 'POST', body: big, arrived: true }, auth);
      const out = readBounded(1024, 64).run(arrived.x);
      assert.ok(!(out instanceof Promise), 'no await for a body already in');
      assert.equal(arrived.written.status, status);
      if (status === null) assert.equal((out as WithBody).raw.toString(), big);
    }
    // A body still arriving that nests too deep is refused on the chunk that shows it, and the
    // connection closes: a bracket flood is not read a megabyte at a time.
    const deep = await served({ url: '/mcp', method: 'POST', body: '['.repeat(100) }, await agent);
    assert.equal((await runStep(readBounded(1024, 64), deep.x)).next, false);
    assert.equal(deep.written.status, 400);
    assert.equal(deep.written.headers['connection'], 'close');
    assert.equal((json(deep.written)['error'] as { code: number }).code, -32600);
    // A declared length over the bound is refused before a byte is read.
    const declared = await served({ url: '/mcp', method: 'POST', headers: { 'content-length': '100000' } });
    assert.equal((await runStep(readBounded(1024, 64), declared.x)).next, false);
    assert.equal(declared.written.status, 413);
  });

  it('screen: too deep, not JSON, or a batch where none exist is refused before any handler', async () => {
    const cases: [string, Record<string, string>, number, number][] = [
      ['['.repeat(100) + ']'.repeat(100), {}, 400, -32600],
      ['{"jsonrpc": "2.0", "id": 1, "method": ', {}, 400, -32700],
      [
        '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]',
        { 'mcp-protocol-version': '2025-11-25' },
        400,
        -32600,
      ],
    ];
    for (const [body, headers, status, code] of cases) {
      const { x, written } = await served({ url: '/mcp', method: 'POST', headers });
      const withBody = Object.assign(x, { raw: Buffer.from(body) }) as WithBody;
      assert.equal((await runStep(screen(), withBody)).next, false, body.slice(0, 20));
      assert.equal(written.status, status);
      assert.equal((json(written)['error'] as { code: number }).code, code);
    }
    const { x } = await served({ url: '/mcp', method: 'POST' });
    const on = await runStep(
      screen(),
      Object.assign(x, { raw: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}') }),
    );
    assert.equal(on.next, true);
    assert.deepEqual(on.out?.message, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  });

  const parsed = async (message: unknown, headers: Record<string, string> = {}, auth?: Admitted) => {
    const { x, written } = await served({ url: '/mcp', method: 'POST', headers }, auth);
    return { x: Object.assign(x, { raw: Buffer.from(JSON.stringify(message)), message }) as Parsed, written };
  };
  const call = (name: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: {} },
  });

  it('step-up: on its own authorization server, a call outside the view asks to sign in; nothing after runs', async () => {
    const handled: string[] = [];
    const { x, written } = await parsed(call('update_profile'));
    assert.equal((await runStep(stepUp(registry, oauthEdge(handled), site()), x)).next, false);
    assert.equal(written.status, 401);
    assert.equal(json(written)['reason'], 'sign_in_required');
    // A name that never existed gets the very same answer: no challenge reveals a tool.
    const unknown = await parsed(call('no_such_tool'));
    await runStep(stepUp(registry, oauthEdge(handled), site()), unknown.x);
    assert.equal(unknown.written.body, written.body);
    for (const [message, oauth] of [
      [call('club_info'), oauthEdge(handled)],
      [call('update_profile'), undefined],
    ] as const) {
      assert.equal((await runStep(stepUp(registry, oauth, site()), (await parsed(message)).x)).next, true);
    }
  });

  const fast = createFastPath({ store: noStore, registry, logger: silentLogger, version: 'test' });
  const legacy = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };

  it('fast-path: a plain tools/list is answered here, and the SDK never runs', async () => {
    const { x, written } = await parsed({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }, legacy);
    assert.equal((await runStep(fastPath(fast), x)).next, false);
    assert.equal(written.status, 200);
    const answer = json(written) as { id: string; result: { tools: unknown[] } };
    assert.equal(answer.id, 'a');
    assert.equal(answer.result.tools.length, 3);
    assert.equal(Number(written.headers['content-length']), Buffer.byteLength(written.body));
    assert.equal(written.headers['content-type'], 'application/json');
    // The list is this caller's: no cache keeps it, and no browser reads it as anything but JSON.
    assert.equal(written.headers['cache-control'], 'no-store');
    assert.equal(written.headers['x-content-type-options'], 'nosniff');
    // An id that is not ASCII is counted in bytes, not characters.
    const wide = await parsed({ jsonrpc: '2.0', id: 'idé€😀', method: 'tools/list' }, legacy);
    await runStep(fastPath(fast), wide.x);
    assert.equal((json(wide.written) as { id: string }).id, 'idé€😀');
    assert.equal(Number(wide.written.headers['content-length']), Buffer.byteLength(wide.written.body));
    // Anything doubtful goes on to the SDK: a cursor, no fast path at all.
    const cursor = await parsed(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } },
      legacy,
    );
    assert.equal((await runStep(fastPath(fast), cursor.x)).next, true);
    const off = await parsed({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacy);
    assert.equal((await runStep(fastPath(null), off.x)).next, true);
  });

  it('sdk: last, it hands the SDK the body already read and the caller', async () => {
    const seen: { method?: string; body: string; clientId?: string }[] = [];
    const step = sdk(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      seen.push({ method: req.method, body, clientId: req.auth.clientId });
      res.writeHead(202).end();
    });
    const { x } = await parsed({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await runStep(step, x);
    assert.deepEqual(seen, [
      {
        method: 'POST',
        body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        clientId: 'anonymous',
      },
    ]);
  });
});
