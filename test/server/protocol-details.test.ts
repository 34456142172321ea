import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { startHttpServer, type RunningServer } from '../../src/server/index.ts';
import type { Logger } from '../../src/server/log.ts';
import {
  ALL_AGENT_SCOPES,
  connectClient,
  rawPost,
  spyOnHandler,
  startClub,
  type TestClub,
} from '../helpers/club.ts';

const MODERN = '2026-07-28';

/** Headers and envelope of one request of a revision, as a client of that revision sends them. */
function call(revision: string, id: number, name: string, args: Record<string, unknown>) {
  const params: Record<string, unknown> = { name, arguments: args };
  if (revision === MODERN) params['_meta'] = { 'io.modelcontextprotocol/protocolVersion': MODERN };
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

function headersFor(revision: string, name?: string): Record<string, string> {
  const h: Record<string, string> = { 'mcp-protocol-version': revision };
  if (revision === MODERN) {
    h['mcp-method'] = 'tools/call';
    if (name) h['mcp-name'] = name;
  }
  return h;
}

describe('protocol details', () => {
  let club: TestClub;
  let token: string;
  let sdkOnly: RunningServer;
  const lines: Record<string, unknown>[] = [];
  before(async () => {
    club = await startClub();
    token = (await club.addMember('alice')).token;
    const logger: Logger = {
      info: (event, fields) => void lines.push({ level: 'info', event, ...fields }),
      error: (event, fields) => void lines.push({ level: 'error', event, ...fields }),
    };
    // The same store served with the fast path off: everything goes through the SDK.
    sdkOnly = await startHttpServer({
      store: club.store,
      registry: club.registry,
      logger,
      version: 'test',
      port: 0,
      fastPath: false,
    });
  });
  after(async () => {
    await sdkOnly.close();
    await club.close();
  });

  const paths = () =>
    [
      ['fast path', club.server.mcpUrl],
      ['SDK path', sdkOnly.mcpUrl],
    ] as const;

  for (const revision of ['2025-06-18', '2025-11-25', MODERN]) {
    it(`a JSON-RPC batch under ${revision} is refused with -32600, on both paths, and nothing in it runs`, async () => {
      const spy = spyOnHandler(club.registry, 'update_profile');
      for (const [path, url] of paths()) {
        const batch = [
          call(revision, 1, 'update_profile', { headline: 'one' }),
          call(revision, 2, 'update_profile', { headline: 'two' }),
        ];
        const r = await rawPost(url, JSON.stringify(batch), {
          authorization: `Bearer ${token}`,
          ...headersFor(revision, 'update_profile'),
        });
        assert.equal(r.status, 400, path);
        const answer = (await r.json()) as { id: unknown; error: { code: number; message: string } };
        assert.equal(answer.error.code, -32600, path);
        assert.equal(answer.id, null);
        assert.match(answer.error.message, new RegExp(`revision ${revision} has no batches`));
      }
      assert.equal(spy.calls, 0, 'no call of the batch ran');
    });
  }

  it('a batch under 2025-03-26, which had batches, is still served', async () => {
    const spy = spyOnHandler(club.registry, 'update_profile');
    const batch = [
      call('2025-03-26', 1, 'update_profile', { headline: 'one' }),
      call('2025-03-26', 2, 'update_profile', { headline: 'two' }),
    ];
    const r = await rawPost(club.server.mcpUrl, JSON.stringify(batch), {
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-03-26',
    });
    assert.equal(r.status, 200);
    await r.text();
    assert.equal(spy.calls, 2);
  });

  it('tools/call without params is answered with a sentence naming what is missing, on both paths', async () => {
    for (const [path, url] of paths()) {
      for (const [body, expected] of [
        [{ jsonrpc: '2.0', id: 5, method: 'tools/call' }, /tools\/call needs params.*"name".*no params/],
        [{ jsonrpc: '2.0', id: 5, method: 'tools/call', params: {} }, /needs params\.name/],
        [{ jsonrpc: '2.0', id: 5, method: 'initialize' }, /initialize needs params/],
        [
          { jsonrpc: '2.0', id: 5, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
          /lack capabilities \(an object\), clientInfo/,
        ],
      ] as const) {
        const r = await rawPost(url, JSON.stringify(body));
        const text = await r.text();
        const answer = JSON.parse(text.replace(/^event: message\ndata: /, '')) as {
          id: number;
          error: { code: number; message: string };
        };
        assert.equal(answer.id, 5);
        assert.equal(answer.error.code, -32602, `${path}: ${text}`);
        assert.match(answer.error.message, expected, path);
        assert.doesNotMatch(answer.error.message, /invalid_type|"path"|\[\n/, 'no validation-library dump');
      }
    }
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`a lone surrogate is refused at input with a clear message, nothing stored (${era})`, async () => {
      const spy = spyOnHandler(club.registry, 'update_profile');
      const client = await connectClient(club.server.mcpUrl, token, era);
      try {
        const r = await client.callTool({ name: 'update_profile', arguments: { bio: 'half \ud800 a pair' } });
        assert.equal(r.isError, true);
        assert.equal(r.structuredContent, undefined);
        const refusal = r._meta?.['warden/refusal'] as { code: string; reason: string };
        assert.equal(refusal.code, 'invalid_arguments');
        assert.match(refusal.reason, /arguments\.bio holds a lone surrogate \(U\+D800\) at character 5/);
        assert.equal(spy.calls, 0, 'the handler never ran');
        // A whole pair (an emoji) is text and passes.
        const fine = await client.callTool({ name: 'update_profile', arguments: { bio: 'sailing 🚣' } });
        assert.equal(fine.isError, undefined);
        assert.equal(spy.calls, 1);
      } finally {
        await client.close();
      }
    });
  }

  it('a lone surrogate sent as raw JSON escapes is refused the same way on the SDK path', async () => {
    const spy = spyOnHandler(club.registry, 'update_profile');
    const r = await rawPost(
      sdkOnly.mcpUrl,
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"update_profile","arguments":{"headline":"x\\udfff"}}}',
      { authorization: `Bearer ${token}` },
    );
    const text = await r.text();
    assert.match(text, /lone surrogate \(U\+DFFF\)/);
    assert.equal(spy.calls, 0);
  });

  it('a client error is one log line without a stack', async () => {
    lines.length = 0;
    const bad = [
      '{',
      '[]',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":7}',
      '"just a string"',
    ];
    for (const body of bad) await (await rawPost(sdkOnly.mcpUrl, body)).text();
    await (await fetch(sdkOnly.mcpUrl, { method: 'PUT' })).text();
    assert.ok(lines.length <= bad.length + 1, `at most one line each: ${lines.length}`);
    for (const line of lines) assert.equal(line['stack'], undefined, JSON.stringify(line));
  });
});

describe('configured timeouts are enforced, measured', () => {
  let club: TestClub;
  let server: RunningServer;
  before(async () => {
    club = await startClub();
    await addPrincipal(club.store, 'bob', { status: 'member' });
    await issueAgentToken(club.store, club.registry, 'bob', { scopes: ALL_AGENT_SCOPES });
    server = await startHttpServer({
      store: club.store,
      registry: club.registry,
      logger: { info: () => {}, error: () => {} },
      version: 'test',
      port: 0,
      headersTimeoutMs: 1_500,
      requestTimeoutMs: 2_500,
    });
  });
  after(async () => {
    await server.close();
    await club.close();
  });

  /** Opens a socket, trickles `first` then one byte of `trickle` every 100 ms; resolves when the server cuts it. */
  function trickle(first: string, more: string): Promise<{ ms: number; reply: string }> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      const t0 = performance.now();
      let reply = '';
      let i = 0;
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(more[i++ % more.length]!);
      }, 100);
      // The test's own bound: well past any limit configured here.
      const giveUp = setTimeout(() => {
        socket.destroy();
        reject(new Error('the server never cut the slow request'));
      }, 12_000);
      socket.on('data', (d) => (reply += d.toString()));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve({ ms: performance.now() - t0, reply });
      });
      socket.write(first);
    });
  }

  it('a client that trickles its headers is cut at the configured 1.5 s (plus at most the 1 s check)', async (t) => {
    const { ms, reply } = await trickle('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: a\r\n');
    t.diagnostic(`slow headers cut after ${ms.toFixed(0)} ms (configured 1500 ms)`);
    assert.ok(ms >= 1_400, `cut too early: ${ms.toFixed(0)} ms`);
    // 1.5 s limit + 1 s checking interval + 1 s headroom for a loaded machine.
    assert.ok(ms < 3_500, `cut at ${ms.toFixed(0)} ms, configured 1500 ms`);
    assert.match(reply, /^HTTP\/1\.1 408/);
  });

  it('a client that trickles its body is cut at the configured 2.5 s request timeout', async (t) => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 50000\r\n\r\n`;
    const { ms } = await trickle(head, ' ');
    t.diagnostic(`slow body cut after ${ms.toFixed(0)} ms (configured 2500 ms)`);
    assert.ok(ms >= 2_400, `cut too early: ${ms.toFixed(0)} ms`);
    assert.ok(ms < 4_500, `cut at ${ms.toFixed(0)} ms, configured 2500 ms`);
  });
});
