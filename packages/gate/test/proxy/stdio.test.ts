import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';
import { bundled } from '../fixtures/compat/servers/bundled.ts';
import {
  assertGateWithholds,
  assertMixedBatchAnswered,
  assertRecorded,
  LIVE,
  MIXED_BATCH,
  PINNED,
} from '../compat/helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'stdio-tools.ts');

const pinned = { tools: PINNED };
const live = { tools: LIVE };

let dir = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('warden-gate proxy (real MCP client, real stdio server)', () => {
  it('withholds a tool whose change is breaking, lets compatible ones through, and records calls', async () => {
    const lock = path.join(dir, 'lock.json');
    const calls = path.join(dir, 'calls.jsonl');
    fs.writeFileSync(path.join(dir, 'pinned.json'), JSON.stringify(pinned));
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify(live));
    assert.equal(
      await main(['pin', '--manifest', path.join(dir, 'pinned.json'), '--lock', lock], bufferIo()),
      0,
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(ROOT, 'bin', 'warden-gate.js'),
        'proxy',
        '--lock',
        lock,
        '--calls',
        calls,
        '--',
        process.execPath,
        bundled(SERVER),
        path.join(dir, 'live.json'),
      ],
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'proxy-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await assertGateWithholds(client, 'called greet');
    } finally {
      await client.close();
    }
    assertRecorded(calls);
    // The recording replays: the call to search was valid under the lock and is rejected live.
    const io = bufferIo();
    assert.equal(
      await main(['check', '--manifest', path.join(dir, 'live.json'), '--lock', lock, '--calls', calls], io),
      1,
    );
    assert.match(io.out.join(''), /^replay: 1 of 2 recorded calls that were valid are now rejected$/m);
  });
});

/**
 * A raw JSON-RPC agent on the proxy's stdio, one message a line: the SDK's client never sends a
 * batch, so batches are written by hand. Answers are read as they come.
 */
function rawAgent(lock: string, liveFile: string, ranFile: string) {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin', 'warden-gate.js'),
      'proxy',
      '--lock',
      lock,
      '--',
      process.execPath,
      bundled(SERVER),
      liveFile,
      ranFile,
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: unknown[] = [];
  const waiting: (() => void)[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (l) => {
    lines.push(JSON.parse(l));
    for (const w of waiting.splice(0)) w();
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return {
    send: (m: unknown): void => void child.stdin.write(`${JSON.stringify(m)}\n`),
    /** The next line the proxy writes to the agent. */
    next: async (): Promise<unknown> => {
      while (lines.length === 0) await new Promise<void>((r) => waiting.push(r));
      return lines.shift();
    },
    /** Whether anything else was written to the agent. */
    pending: (): number => lines.length,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

// A generous bound, so a proxy that swallows an answer fails the test instead of hanging it.
const BATCH_TIMEOUT = { timeout: 60_000 };

describe('warden-gate proxy: JSON-RPC batches on stdio', () => {
  let lock = '';
  let liveFile = '';
  before(async () => {
    lock = path.join(dir, 'batch.lock.json');
    liveFile = path.join(dir, 'batch-live.json');
    fs.writeFileSync(path.join(dir, 'batch-pinned.json'), JSON.stringify(pinned));
    fs.writeFileSync(liveFile, JSON.stringify(live));
    assert.equal(
      await main(['pin', '--manifest', path.join(dir, 'batch-pinned.json'), '--lock', lock], bufferIo()),
      0,
    );
  });

  async function opened(version: string, ranFile: string): Promise<ReturnType<typeof rawAgent>> {
    const agent = rawAgent(lock, liveFile, ranFile);
    agent.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
    });
    const init = (await agent.next()) as { result: { protocolVersion: string } };
    assert.equal(init.result.protocolVersion, version);
    agent.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return agent;
  }
  const ran = (file: string): string[] =>
    fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];

  it(
    '2025-03-26: a batch mixing a withheld call, an allowed call, tools/list and a notification',
    BATCH_TIMEOUT,
    async () => {
      const ranFile = path.join(dir, 'ran-2025-03-26.txt');
      const agent = await opened('2025-03-26', ranFile);
      try {
        agent.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
        const first = (await agent.next()) as { id: number; result: { tools: { name: string }[] } };
        assert.deepEqual(first.result.tools.map((t) => t.name).sort(), ['fresh', 'greet']);
        agent.send(MIXED_BATCH);
        const byId = assertMixedBatchAnswered(await agent.next());
        assert.deepEqual((byId.get('b') as { result: { content: unknown } }).result.content, [
          { type: 'text', text: 'called greet' },
        ]);
      } finally {
        await agent.stop();
      }
      // The server ran greet alone: the withheld call never reached it.
      assert.deepEqual(ran(ranFile), ['greet']);
      assert.equal(agent.pending(), 0, 'nothing else was written to the agent');
    },
  );

  it(
    '2025-03-26: a call in the first batch, before any tools/list: the proxy lists on its own, then judges it',
    BATCH_TIMEOUT,
    async () => {
      const ranFile = path.join(dir, 'ran-first-batch.txt');
      const agent = await opened('2025-03-26', ranFile);
      try {
        agent.send([
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'search', arguments: { limit: 1.5 } },
          },
          { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'fresh', arguments: {} } },
          { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'greet', arguments: {} } },
        ]);
        const answer = (await agent.next()) as Record<string, unknown>[];
        const byId = new Map(answer.map((a) => [a.id, a]));
        // Only the agent's own requests are answered: the proxy's listing stays the proxy's.
        assert.deepEqual([...byId.keys()].sort(), [2, 3, 4]);
        const refused = byId.get(2) as { error: { data: { code: string; rule: string } } };
        assert.equal(refused.error.data.code, 'tool_withheld');
        assert.equal(refused.error.data.rule, 'type-narrowed');
        // A tool the lock does not hold is new, and new tools pass; a compatible one passes too.
        assert.deepEqual((byId.get(3) as { result: { content: unknown } }).result.content, [
          { type: 'text', text: 'called fresh' },
        ]);
        assert.deepEqual((byId.get(4) as { result: { content: unknown } }).result.content, [
          { type: 'text', text: 'called greet' },
        ]);
      } finally {
        await agent.stop();
      }
      assert.deepEqual(ran(ranFile).sort(), ['fresh', 'greet']);
      assert.equal(agent.pending(), 0, 'nothing else was written to the agent');
    },
  );

  for (const version of ['2025-03-26', '2025-11-25'])
    it(
      `${version}: a single call before any tools/list (a host that listed in an earlier session) is judged all the same`,
      BATCH_TIMEOUT,
      async () => {
        const ranFile = path.join(dir, `ran-unlisted-${version}.txt`);
        const agent = await opened(version, ranFile);
        try {
          agent.send({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'search', arguments: {} },
          });
          const refused = (await agent.next()) as {
            id: number;
            error: { data: { code: string; rule: string } };
          };
          assert.equal(refused.id, 1);
          assert.equal(refused.error.data.code, 'tool_withheld');
          assert.equal(refused.error.data.rule, 'type-narrowed');
          agent.send({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'greet', arguments: {} },
          });
          const ok = (await agent.next()) as { id: number; result: { content: unknown } };
          assert.equal(ok.id, 2);
          assert.deepEqual(ok.result.content, [{ type: 'text', text: 'called greet' }]);
        } finally {
          await agent.stop();
        }
        assert.deepEqual(ran(ranFile), ['greet'], 'the withheld call never reached the server');
        assert.equal(agent.pending(), 0, 'the proxy listing was never passed to the agent');
      },
    );

  for (const version of ['2025-06-18', '2025-11-25'])
    it(
      `${version}: batches are no part of the revision, so a batch is one clear error and nothing is forwarded`,
      BATCH_TIMEOUT,
      async () => {
        const ranFile = path.join(dir, `ran-${version}.txt`);
        const agent = await opened(version, ranFile);
        try {
          agent.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
          await agent.next();
          agent.send([
            { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'search', arguments: {} } },
            { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'greet', arguments: {} } },
            { jsonrpc: '2.0', id: 'c', method: 'tools/list' },
          ]);
          const answer = (await agent.next()) as {
            id: null;
            error: { code: number; message: string; data: { code: string } };
          };
          assert.equal(answer.id, null);
          assert.equal(answer.error.code, -32600);
          assert.equal(answer.error.data.code, 'batch_not_supported');
          assert.match(answer.error.message, new RegExp(`not part of MCP ${version}`));
          // The proxy still works for single messages afterwards.
          agent.send({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'greet', arguments: {} },
          });
          const single = (await agent.next()) as { id: number; result: unknown };
          assert.equal(single.id, 2);
        } finally {
          await agent.stop();
        }
        assert.deepEqual(ran(ranFile), ['greet'], 'only the single call after the batch ran');
      },
    );
});
