import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { startHttpServer, silentLogger, type RunningServer } from '../../src/server/index.ts';
import { RateLimiter } from '../../src/server/rate-limit.ts';
import type { Store } from '../../src/store/contract.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { ALL_AGENT_SCOPES, connectClient, rawPost, spyOnHandler } from '../helpers/club.ts';

const call = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'club_info', arguments: {} } });

describe('rate limits: a token bucket per token and per anonymous address, HTTP 429 with Retry-After', () => {
  let dir: string;
  let store: Store;
  let server: RunningServer;
  let registry: ReturnType<typeof buildRegistry>;
  let tokenA: string;
  let tokenB: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-'));
    store = await openStore(join(dir, 'club.db'));
    registry = buildRegistry();
    // Slow refill (1 request every 4 s) so the test sees the bucket run dry, however loaded the machine.
    server = await startHttpServer({
      store,
      registry,
      logger: silentLogger,
      version: 'test',
      port: 0,
      rateLimits: { token: { perSecond: 0.25, burst: 3 }, anonymous: { perSecond: 0.25, burst: 2 } },
    });
    await addPrincipal(store, 'alice', { status: 'member' });
    await addPrincipal(store, 'bob', { status: 'member' });
    tokenA = (await issueAgentToken(store, registry, 'alice', { scopes: ALL_AGENT_SCOPES })).token;
    tokenB = (await issueAgentToken(store, registry, 'bob', { scopes: ALL_AGENT_SCOPES })).token;
  });
  after(async () => {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 429 with Retry-After and a JSON-RPC error past the burst, without running the tool, then recovers', async () => {
    const spy = spyOnHandler(registry, 'club_info');
    const auth = { authorization: `Bearer ${tokenA}` };
    for (let i = 1; i <= 3; i++) assert.equal((await rawPost(server.mcpUrl, call(i), auth)).status, 200);
    assert.equal(spy.calls, 3);
    const limited = await rawPost(server.mcpUrl, call(4), auth);
    assert.equal(limited.status, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 4,
      `Retry-After ${retryAfter}`,
    );
    const body = (await limited.json()) as {
      jsonrpc: string;
      id: null;
      error: { code: number; message: string; data: { reason: string; retry_after_seconds: number } };
    };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32000);
    assert.match(body.error.message, /Too many requests: this token .* Retry after \d+ s/);
    assert.equal(body.error.data.reason, 'rate_limited');
    assert.equal(body.error.data.retry_after_seconds, retryAfter);
    assert.equal(spy.calls, 3, 'the refused request never reached the tool');

    // Another token has its own bucket.
    assert.equal((await rawPost(server.mcpUrl, call(5), { authorization: `Bearer ${tokenB}` })).status, 200);

    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    assert.equal((await rawPost(server.mcpUrl, call(6), auth)).status, 200, 'recovers after Retry-After');
  });

  it('limits callers without a token per address, bad tokens included, and the SDK client reports the reason', async () => {
    // The anonymous bucket (burst 2) is spent by two requests, whatever credential-less form they take.
    assert.equal((await rawPost(server.mcpUrl, call(1))).status, 200);
    const bad = await rawPost(server.mcpUrl, call(2), { authorization: 'Bearer wdn_' + 'x'.repeat(43) });
    assert.equal(bad.status, 401);
    const limited = await rawPost(server.mcpUrl, call(3), { authorization: 'Bearer nonsense' });
    assert.equal(limited.status, 429);
    assert.ok(limited.headers.get('retry-after'));
    const err = await connectClient(server.mcpUrl, undefined, 'legacy').catch((e: Error) => e);
    assert.ok(err instanceof Error);
    assert.match(err.message, /Too many requests: this address \(no credential\)/);
  });

  it('keeps a bounded number of buckets and refills at the configured rate', () => {
    let t = 0;
    const limiter = new RateLimiter(
      { token: { perSecond: 2, burst: 2 }, anonymous: { perSecond: 0, burst: 1 } },
      () => t,
    );
    assert.ok(limiter.take('token', 'a').ok);
    assert.ok(limiter.take('token', 'a').ok);
    const over = limiter.take('token', 'a');
    assert.ok(!over.ok && over.retryAfterSeconds === 1);
    t = 500; // half a second refills one request
    assert.ok(limiter.take('token', 'a').ok);
    assert.ok(!limiter.take('token', 'a').ok);
    for (let i = 0; i < 1000; i++) assert.ok(limiter.take('anonymous', `ip${i}`).ok, 'rate 0 is off');
  });

  it('takes a batch of messages all at once or not at all, and keeps a record bucket per token', () => {
    let t = 0;
    const limiter = new RateLimiter(
      {
        token: { perSecond: 1, burst: 10 },
        anonymous: { perSecond: 0, burst: 1 },
        record: { perSecond: 0.5, burst: 4 },
      },
      () => t,
    );
    assert.ok(limiter.take('token', 'a', 7).ok);
    const short = limiter.take('token', 'a', 4);
    assert.ok(!short.ok && short.retryAfterSeconds === 1, 'three left, four asked: a second to wait');
    assert.ok(limiter.take('token', 'a', 3).ok, 'the refused take took nothing');
    assert.ok(limiter.take('record', 'a', 4).ok, 'the record bucket is apart from the rate');
    const full = limiter.take('record', 'a');
    assert.ok(!full.ok && full.retryAfterSeconds === 2);
    t = 2000;
    assert.ok(limiter.take('record', 'a').ok);
  });
});
