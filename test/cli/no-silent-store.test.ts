import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from 'mcp-sdk-v1/client/index.js';
import { StdioClientTransport as StdioV1 } from 'mcp-sdk-v1/client/stdio.js';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { startHttpServer, silentLogger, type RunningServer } from '../../src/server/index.ts';
import type { Store } from '../../src/store/contract.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { doctor } from '../doctor/support.ts';

const BIN = join(import.meta.dirname, '../../bin/warden.js');
const A_TOKEN = 'wdn_w-FApGaSLWRxMHXC9BZpqAq_6nHm4a3TAgJlHIW2VHs';

/**
 * No silent empty store: only serve and admin init create one; every other command
 * pointed at nothing stops with exit 2 and says how to point at the right store. A
 * token refused by an empty store is blamed on the store, not the token — over HTTP,
 * over stdio (to the client itself, not only on stderr) and by the doctor.
 */
describe('no silent empty store', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function run(argv: string[], env: Record<string, string> = {}) {
    const io = bufferIo(env);
    const code = await main(argv, io);
    return { code, out: io.out.join(''), err: io.err.join('') };
  }

  it('an admin command on a path with no store exits 2, names the path and how to fix it, creates nothing', async () => {
    const missing = join(dir, 'nonexistent', 'dir', 'x.db');
    for (const argv of [
      ['admin', 'principal', 'list', '--db', missing],
      ['admin', 'token', 'list', 'alice', '--db', missing],
      ['admin', 'mandate', 'show', 'alice', '--db', missing],
      ['admin', 'decisions', 'list', 'alice', '--db', missing],
    ]) {
      const r = await run(argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(
        r.err,
        new RegExp(`no Warden store at ${missing.replace(/[.]/g, '\\.')} \\(given with --db\\)`),
      );
      assert.match(r.err, /--db PATH or WARDEN_DB=PATH/);
      assert.match(r.err, /warden admin init --db/);
      assert.equal(r.out, '');
    }
    assert.equal(existsSync(join(dir, 'nonexistent')), false, 'no folder, no file was made');
    const fromEnv = await run(['admin', 'principal', 'list'], { WARDEN_DB: missing });
    assert.equal(fromEnv.code, 2);
    assert.match(fromEnv.err, /\(from WARDEN_DB\)/);
  });

  it('admin init creates a store once, then the same commands work; a second init changes nothing', async () => {
    const db = join(dir, 'made', 'club.db');
    const first = await run(['admin', 'init', '--db', db]);
    assert.equal(first.code, 0);
    assert.match(first.out, /Created a new Warden store at/);
    assert.equal(
      (await run(['admin', 'principal', 'add', 'alice', '--status', 'member', '--db', db])).code,
      0,
    );
    const again = await run(['admin', 'init', '--db', db, '--json']);
    assert.deepEqual(JSON.parse(again.out), { store: db, created: false, principals: 1 });
    assert.match((await run(['admin', 'principal', 'list', '--db', db])).out, /alice/);
  });

  for (const [name, connect] of [
    [
      'SDK 2.x',
      async (env: Record<string, string>) => {
        const c = new Client({ name: 't', version: '1' });
        await c.connect(
          new StdioClientTransport({ command: process.execPath, args: [BIN, 'stdio'], env, stderr: 'pipe' }),
        );
      },
    ],
    [
      'SDK 1.x',
      async (env: Record<string, string>) => {
        const c = new ClientV1({ name: 't', version: '1' });
        await c.connect(
          new StdioV1({ command: process.execPath, args: [BIN, 'stdio'], env, stderr: 'pipe' }),
        );
      },
    ],
  ] as const) {
    it(`stdio tells the ${name} client why it cannot serve: no store, then a token an empty store does not know`, async () => {
      const env = { PATH: process.env['PATH'] ?? '', WARDEN_DB: join(dir, 'nowhere', 'x.db') };
      await assert.rejects(connect(env), /no Warden store at .*nowhere.*warden admin init/);
      assert.equal(existsSync(join(dir, 'nowhere')), false);

      const empty = join(dir, `empty-${name.replace(/\W/g, '')}.db`);
      assert.equal((await run(['admin', 'init', '--db', empty])).code, 0);
      await assert.rejects(
        connect({ ...env, WARDEN_DB: empty, WARDEN_TOKEN: A_TOKEN }),
        /WARDEN_TOKEN was rejected \(unknown\).*no principals at all.*right store/,
      );
    });
  }

  describe('over HTTP, and as the doctor tells it', () => {
    let store: Store;
    let server: RunningServer;
    before(async () => {
      store = await openStore(join(dir, 'http-empty.db'));
      server = await startHttpServer({
        store,
        registry: buildRegistry(),
        logger: silentLogger,
        version: 'test',
        port: 0,
      });
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    it('an unknown token on an empty store is a 401 that blames the store', async () => {
      const res = await fetch(server.mcpUrl.replace(/\/mcp$/, '/diagnose'), {
        headers: { authorization: `Bearer ${A_TOKEN}` },
      });
      assert.equal(res.status, 401);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body['reason'], 'unknown');
      assert.equal(body['empty_store'], true);
      assert.match(String(body['error_description']), /no principals at all/);
    });

    it('the doctor names the wrong store as the likely cause, and does not advise a new token', async () => {
      const r = await doctor([server.mcpUrl, '--token', A_TOKEN]);
      assert.equal(r.code, 1);
      assert.match(r.out, /wrong store/);
      assert.doesNotMatch(r.out, /issue a new token/);
      assert.doesNotMatch(r.out, new RegExp(A_TOKEN));
    });
  });
});
