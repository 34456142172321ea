import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';
import { startHttpTools } from '../fixtures/compat/servers/http-tools.ts';

const tools = [
  {
    name: 'ping',
    description: 'Ping',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
  },
];

let dir = '';
let server: Awaited<ReturnType<typeof startHttpTools>>;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
  server = await startHttpTools(tools, 's3cret');
});
after(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('warden-gate over Streamable HTTP (real HTTP on loopback)', () => {
  it('pins with a header and checks the same manifest silently', async () => {
    const lock = path.join(dir, 'lock.json');
    const io = bufferIo();
    assert.equal(
      await main(
        ['pin', '--url', server.url, '--header', 'Authorization: Bearer s3cret', '--lock', lock],
        io,
      ),
      0,
      io.err.join(''),
    );
    assert.deepEqual(
      JSON.parse(fs.readFileSync(lock, 'utf8')).servers.default.tools.ping.definition,
      tools[0],
    );
    const check = bufferIo();
    assert.equal(
      await main(
        ['check', '--url', server.url, '--header', 'Authorization: Bearer s3cret', '--lock', lock],
        check,
      ),
      0,
    );
    assert.equal(check.out.join(''), '', 'silent on an identical manifest');
  });

  it('without the header the server refuses, and the gate exits 3 without touching the lock', async () => {
    const lock = path.join(dir, 'none.json');
    const io = bufferIo();
    assert.equal(await main(['pin', '--url', server.url, '--lock', lock], io), 3);
    assert.match(io.err.join(''), /^warden-gate \w+: cannot read http:\/\/127\.0\.0\.1:\d+\/mcp/);
    assert.equal(fs.existsSync(lock), false);
  });

  it('rejects a malformed header before connecting', async () => {
    const io = bufferIo();
    assert.equal(
      await main(
        ['pin', '--url', server.url, '--header', 'no colon here', '--lock', path.join(dir, 'x.json')],
        io,
      ),
      3,
    );
    assert.match(io.err.join(''), /--header must look like "Name: value"/);
  });
});
