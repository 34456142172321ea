import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/cli/io.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'stdio-tools.ts');

const pinned = {
  tools: [
    {
      name: 'search',
      inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'number' } } },
    },
    { name: 'greet', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } },
  ],
};
const live = {
  tools: [
    {
      name: 'search',
      inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
    },
    {
      name: 'greet',
      inputSchema: { type: 'object', properties: { who: { type: 'string' }, loud: { type: 'boolean' } } },
    },
    { name: 'fresh', inputSchema: { type: 'object' } },
  ],
};

let dir = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('warden gate proxy (real MCP client, real stdio server)', () => {
  it('withholds a tool whose change is breaking, lets compatible ones through, and records calls', async () => {
    const lock = path.join(dir, 'lock.json');
    const calls = path.join(dir, 'calls.jsonl');
    fs.writeFileSync(path.join(dir, 'pinned.json'), JSON.stringify(pinned));
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify(live));
    assert.equal(
      await main(['gate', 'pin', '--manifest', path.join(dir, 'pinned.json'), '--lock', lock], bufferIo()),
      0,
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(ROOT, 'bin', 'warden.js'),
        'gate',
        'proxy',
        '--lock',
        lock,
        '--calls',
        calls,
        '--',
        process.execPath,
        '--import',
        'tsx',
        SERVER,
        path.join(dir, 'live.json'),
      ],
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'proxy-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = await client.listTools();
      assert.deepEqual(listed.tools.map((t) => t.name).sort(), ['fresh', 'greet']);
      const ok = await client.callTool({ name: 'greet', arguments: { who: 'ann' } });
      assert.deepEqual(ok.content, [{ type: 'text', text: 'called greet' }]);
      await assert.rejects(
        client.callTool({ name: 'search', arguments: { q: 'x', limit: 1.5 } }),
        /Unknown tool: search/,
      );
    } finally {
      await client.close();
    }
    const recorded = fs
      .readFileSync(calls, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(recorded, [
      { tool: 'greet', arguments: { who: 'ann' } },
      { tool: 'search', arguments: { q: 'x', limit: 1.5 } },
    ]);
    // The recording replays: the call to search was valid under the lock and is rejected live.
    const io = bufferIo();
    assert.equal(
      await main(
        ['gate', 'check', '--manifest', path.join(dir, 'live.json'), '--lock', lock, '--calls', calls],
        io,
      ),
      1,
    );
    assert.match(io.out.join(''), /^replay: 1 of 2 recorded calls that were valid are now rejected$/m);
  });
});
