import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { startUpstream, type Upstream } from '../fixtures/compat/servers/http-upstream.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const pinned = [
  {
    name: 'search',
    description: 'Search',
    inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'number' } } },
  },
  { name: 'greet', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } },
];
// search: its description changed (compatible) before its limit narrowed (breaking): the note
// must name the break, not the first finding.
const live = [
  {
    name: 'search',
    description: 'Search the catalogue',
    inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
  },
  {
    name: 'greet',
    inputSchema: { type: 'object', properties: { who: { type: 'string' }, loud: { type: 'boolean' } } },
  },
  { name: 'fresh', inputSchema: { type: 'object' } },
];

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
    [path.join(ROOT, 'bin', 'warden.js'), 'gate', 'proxy', ...args],
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
  assert.equal(await main(['gate', 'pin', '--manifest', manifest, '--lock', lock], bufferIo()), 0);
  return lock;
}

for (const era of [
  { mode: 'sessions' as const, negotiation: undefined, protocol: '2025-11-25' },
  { mode: 'modern' as const, negotiation: 'auto' as const, protocol: '2026-07-28' },
]) {
  describe(`warden gate proxy --url (${era.protocol}, real client, real upstream over loopback)`, () => {
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
        const listed = await client.listTools();
        assert.deepEqual(listed.tools.map((t) => t.name).sort(), ['fresh', 'greet']);
        const ok = await client.callTool({ name: 'greet', arguments: { who: 'ann' } });
        assert.deepEqual(ok.content, [{ type: 'text', text: 'ran greet' }]);
        await assert.rejects(
          client.callTool({ name: 'search', arguments: { q: 'x', limit: 1.5 } }),
          /Unknown tool: search/,
        );
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
      const recorded = fs
        .readFileSync(calls, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(recorded, [
        { tool: 'greet', arguments: { who: 'ann' } },
        { tool: 'search', arguments: { q: 'x', limit: 1.5 } },
      ]);
      // The note names the rule that broke the tool, not its first (compatible) finding.
      assert.match(proxy.stderr(), /withholding search: breaking change against the lock \(type-narrowed: /);
      assert.doesNotMatch(proxy.stderr(), /tool-description-changed/);
    });
  });
}

describe('warden gate proxy --url: usage', () => {
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
      assert.equal(await main(['gate', 'proxy', ...argv], io), 2, argv.join(' '));
      assert.equal(io.err.join('').trim().split('\n').length, 1, io.err.join(''));
    }
  });
});
