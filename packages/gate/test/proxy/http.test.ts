import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';
import { startUpstream, type Upstream } from '../fixtures/compat/servers/http-upstream.ts';
import {
  assertGateWithholds,
  assertMixedBatchAnswered,
  assertRecorded,
  LIVE,
  MIXED_BATCH,
  PINNED,
} from '../compat/helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const pinned = PINNED;
const live = LIVE;

let dir = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Proxy {
  url: string;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/** Starts the real executable as the proxy and waits for the address it prints. */
async function startProxy(args: string[]): Promise<Proxy> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, 'bin', 'warden-gate.js'), 'proxy', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', (code) => reject(new Error(`proxy exited ${code}: ${err}`)));
  });
  return {
    url,
    stderr: () => err,
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

async function pin(name: string): Promise<string> {
  const lock = path.join(dir, `${name}.lock.json`);
  const manifest = path.join(dir, `${name}.json`);
  fs.writeFileSync(manifest, JSON.stringify({ tools: pinned }));
  assert.equal(await main(['pin', '--manifest', manifest, '--lock', lock], bufferIo()), 0);
  return lock;
}

for (const era of [
  { mode: 'sessions' as const, negotiation: undefined, protocol: '2025-11-25' },
  { mode: 'modern' as const, negotiation: 'auto' as const, protocol: '2026-07-28' },
]) {
  describe(`warden-gate proxy --url (${era.protocol}, real client, real upstream over loopback)`, () => {
    let upstream: Upstream;
    let proxy: Proxy;
    let calls = '';
    before(async () => {
      upstream = await startUpstream(live, era.mode);
      const lock = await pin(era.mode);
      calls = path.join(dir, `${era.mode}.calls.jsonl`);
      proxy = await startProxy([
        '--url',
        upstream.url,
        '--header',
        'Authorization: Bearer upstream-secret',
        '--lock',
        lock,
        '--calls',
        calls,
        '--port',
        '0',
      ]);
    });
    after(async () => {
      assert.equal(await proxy.stop(), 0);
      await upstream.close();
    });

    it('withholds the breaking tool (the server never runs it), passes the rest, records every call', async () => {
      const client = new Client(
        { name: 'agent', version: '1.0.0' },
        era.negotiation ? { versionNegotiation: { mode: era.negotiation } } : undefined,
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(proxy.url), {
          requestInit: { headers: { Authorization: 'Bearer agent-secret', Cookie: 'sid=agent' } },
        }),
      );
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), era.protocol);
        await assertGateWithholds(client, 'ran greet');
      } finally {
        await client.close();
      }
      // The refused handler never ran; the allowed one ran once.
      assert.deepEqual(upstream.ran, { greet: 1 });
      // Upstream saw only the proxy's credential, never the agent's.
      assert.ok(upstream.auth.length > 0);
      assert.ok(
        upstream.auth.every((a) => a === 'Bearer upstream-secret'),
        JSON.stringify(upstream.auth),
      );
      if (era.mode === 'sessions') assert.ok(upstream.sessions.length > 0, 'the session id went through');
      assertRecorded(calls);
      // The note names the rule that broke the tool, not its first (compatible) finding.
      assert.match(proxy.stderr(), /withholding search: breaking change against the lock \(type-narrowed: /);
      assert.doesNotMatch(proxy.stderr(), /tool-description-changed/);
    });

    it('judges calls made before any tools/list (a host that listed earlier): the proxy lists on its own', async () => {
      const fresh = await startProxy([
        '--url',
        upstream.url,
        '--lock',
        await pin(`${era.mode}-unlisted`),
        '--port',
        '0',
      ]);
      const ranBefore = { ...upstream.ran };
      const client = new Client(
        { name: 'agent', version: '1.0.0' },
        era.negotiation ? { versionNegotiation: { mode: era.negotiation } } : undefined,
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(fresh.url)));
      try {
        const ok = await client.callTool({ name: 'greet', arguments: { who: 'bo' } });
        assert.deepEqual(ok.content, [{ type: 'text', text: 'ran greet' }]);
        await assert.rejects(
          client.callTool({ name: 'search', arguments: { q: 'x' } }),
          (err: { message: string; data?: { code?: string; rule?: string } }) =>
            /Unknown tool: search/.test(err.message) &&
            err.data?.code === 'tool_withheld' &&
            err.data.rule === 'type-narrowed',
        );
      } finally {
        await client.close();
        assert.equal(await fresh.stop(), 0);
      }
      assert.equal((upstream.ran.greet ?? 0) - (ranBefore.greet ?? 0), 1, 'the allowed call ran once');
      assert.equal(upstream.ran.search ?? 0, ranBefore.search ?? 0, 'the withheld call never ran');
    });
  });
}

describe('warden-gate proxy --url: usage', () => {
  it('one upstream only, and --header or --port only with --url', async () => {
    const lock = await pin('usage');
    for (const argv of [
      ['--url', 'http://127.0.0.1:1/mcp', '--lock', lock, '--', 'node'],
      ['--header', 'A: b', '--lock', lock, '--', 'node'],
      ['--port', '80', '--lock', lock, '--', 'node'],
      ['--url', 'http://127.0.0.1:1/mcp', '--port', 'x', '--lock', lock],
      ['--url', 'ftp://example.org/', '--lock', lock],
    ]) {
      const io = bufferIo();
      assert.equal(await main(['proxy', ...argv], io), 3, argv.join(' '));
      assert.equal(io.err.join('').trim().split('\n').length, 1, io.err.join(''));
    }
  });
});

/**
 * A raw agent over HTTP: the SDK's client never sends a batch, so requests are posted by hand,
 * and answers are read whether they come as JSON or as server-sent events.
 */
async function rawSession(url: string, version: string) {
  let session: string | undefined;
  const post = async (body: unknown): Promise<{ status: number; messages: Record<string, unknown>[] }> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (session) headers['mcp-session-id'] = session;
    // The revision header rides on every request after initialize, as 2025-06-18 and later ask.
    if (!(isObject(body) && body.method === 'initialize')) headers['mcp-protocol-version'] = version;
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    session ??= res.headers.get('mcp-session-id') ?? undefined;
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const parsed: unknown[] = type.startsWith('text/event-stream')
      ? text
          .split(/\n\n/)
          .map((event) =>
            event
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
              .join('\n'),
          )
          .filter(Boolean)
          .map((d) => JSON.parse(d))
      : text
        ? [JSON.parse(text)]
        : [];
    return { status: res.status, messages: parsed.flat() as Record<string, unknown>[] };
  };
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  });
  assert.equal((init.messages[0]?.result as { protocolVersion: string }).protocolVersion, version);
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { post };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const names = (m: Record<string, unknown> | undefined): string[] =>
  ((m?.result as { tools: { name: string }[] }).tools ?? []).map((t) => t.name).sort();

for (const mode of ['sessions', 'modern'] as const) {
  describe(`warden-gate proxy --url: JSON-RPC batches (${mode} upstream)`, () => {
    let upstream: Upstream;
    let proxy: Proxy;
    before(async () => {
      upstream = await startUpstream(live, mode);
      proxy = await startProxy(['--url', upstream.url, '--lock', await pin(`batch-${mode}`), '--port', '0']);
    });
    after(async () => {
      assert.equal(await proxy.stop(), 0);
      await upstream.close();
    });

    it('2025-03-26: a batch mixing a withheld call, an allowed call, tools/list and a notification', async () => {
      const agent = await rawSession(proxy.url, '2025-03-26');
      assert.deepEqual(
        names((await agent.post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).messages[0]),
        ['fresh', 'greet'],
      );
      const { status, messages } = await agent.post(MIXED_BATCH);
      assert.equal(status, 200);
      const byId = assertMixedBatchAnswered(messages);
      assert.deepEqual((byId.get('b')?.result as { content: unknown }).content, [
        { type: 'text', text: 'ran greet' },
      ]);
      // The server ran greet alone: the withheld call never reached it.
      assert.deepEqual(upstream.ran, { greet: 1 });

      // Refused beside nothing but a notification (which the server answers with 202 and no
      // body), the refusal is still the answer.
      const alone = await agent.post([
        { jsonrpc: '2.0', id: 'd', method: 'tools/call', params: { name: 'search', arguments: {} } },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      ]);
      assert.equal(alone.status, 200);
      assert.deepEqual(
        alone.messages.map((m) => [m.id, (m.error as { data: { code: string } }).data.code]),
        [['d', 'tool_withheld']],
      );
      assert.deepEqual(upstream.ran, { greet: 1 });
    });

    for (const version of ['2025-06-18', '2025-11-25'])
      it(`${version}: a batch is one clear error and nothing in it is forwarded`, async () => {
        const agent = await rawSession(proxy.url, version);
        await agent.post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
        const before = { ...upstream.ran };
        const { status, messages } = await agent.post([
          { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'search', arguments: {} } },
          { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'greet', arguments: {} } },
          { jsonrpc: '2.0', id: 'c', method: 'tools/list' },
        ]);
        assert.equal(status, 400);
        assert.equal(messages.length, 1);
        const error = messages[0]?.error as { code: number; message: string; data: { code: string } };
        assert.equal(messages[0]?.id, null);
        assert.equal(error.code, -32600);
        assert.equal(error.data.code, 'batch_not_supported');
        assert.match(error.message, new RegExp(`not part of MCP ${version}`));
        assert.deepEqual(upstream.ran, before, 'the server ran nothing of the batch');
      });

    it('2026-07-28: a batch whose elements carry the per-request envelope is one clear error too', async () => {
      const before = { ...upstream.ran };
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
      const res = await fetch(proxy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify([
          {
            jsonrpc: '2.0',
            id: 'a',
            method: 'tools/call',
            params: { name: 'search', arguments: {}, _meta: meta },
          },
          {
            jsonrpc: '2.0',
            id: 'b',
            method: 'tools/call',
            params: { name: 'greet', arguments: {}, _meta: meta },
          },
        ]),
      });
      assert.equal(res.status, 400);
      const answer = (await res.json()) as { error: { data: { code: string }; message: string } };
      assert.equal(answer.error.data.code, 'batch_not_supported');
      assert.match(answer.error.message, /not part of MCP 2026-07-28/);
      assert.deepEqual(upstream.ran, before);
    });
  });
}
