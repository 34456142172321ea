import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { changeMandate } from '../../src/admin/mandate.ts';
import { startClub, type TestClub } from '../helpers/club.ts';

const BIN = join(import.meta.dirname, '../../bin/warden.js');

describe('stdio: the same tiers over a local process', () => {
  let club: TestClub;
  let member: string;
  let candidate: string;
  before(async () => {
    club = await startClub();
    member = (await club.addMember('alice')).token;
    candidate = (await club.addCandidate('bob')).token;
  });
  after(() => club.close());

  async function connect(token: string | undefined, modern = false): Promise<Client> {
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      WARDEN_DB: join(club.dir, 'club.db'),
    };
    if (token) env['WARDEN_TOKEN'] = token;
    const client = new Client(
      { name: 'stdio-test', version: '1' },
      modern ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    // Without a token, the anonymous tier is served only when asked for.
    const args = [BIN, 'stdio', ...(token ? [] : ['--anonymous'])];
    await client.connect(new StdioClientTransport({ command: process.execPath, args, env, stderr: 'pipe' }));
    return client;
  }

  const run = (args: string[], env: Record<string, string>, input = '') =>
    spawnSync(process.execPath, [BIN, 'stdio', ...args], {
      env: { PATH: process.env['PATH'] ?? '', WARDEN_DB: join(club.dir, 'club.db'), ...env },
      input,
      encoding: 'utf8',
      timeout: 20_000,
    });

  it('anonymous 3, candidate 10, member 14', async () => {
    for (const [token, n] of [
      [undefined, 3],
      [candidate, 10],
      [member, 14],
    ] as const) {
      const client = await connect(token);
      assert.equal((await client.listTools()).tools.length, n);
      await client.close();
    }
  });

  it('serves the 2026-07-28 revision too', async () => {
    const client = await connect(member, true);
    assert.equal((await client.listTools()).tools.length, 14);
    await client.close();
  });

  it('recomputes permissions per request on a long-lived connection', async () => {
    const client = await connect(member);
    assert.equal((await client.listTools()).tools.length, 14);
    await changeMandate({ store: club.store, registry: club.registry }, 'alice', { scopes: 'inbox' });
    assert.equal((await client.listTools()).tools.length, 5);
    await client.close();
  });

  it('no WARDEN_TOKEN: it does not start, and says so on stderr and to the client, with the two ways on', () => {
    for (const env of [{}, { WARDEN_TOKEN: '' }] as Record<string, string>[]) {
      const initialize = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      });
      const r = run([], env, initialize + '\n');
      assert.equal(r.status, 2, JSON.stringify(env));
      assert.match(r.stderr, /WARDEN_TOKEN is not set/);
      assert.match(r.stderr, /anonymous tier \(3 tools\)/);
      assert.match(r.stderr, /warden admin token issue/);
      assert.match(r.stderr, /--anonymous/);
      // A desktop client hides stderr: the reason reaches it as the answer to its first request.
      const answer = JSON.parse(r.stdout.trim()) as { id: number; error: { message: string } };
      assert.equal(answer.id, 1);
      assert.match(answer.error.message, /^Warden did not start: WARDEN_TOKEN is not set\. .*--anonymous/);
    }
  });

  it('the official client hears why, instead of a healthy-looking anonymous connection', async () => {
    const client = new Client({ name: 'stdio-test', version: '1' });
    const env = { PATH: process.env['PATH'] ?? '', WARDEN_DB: join(club.dir, 'club.db') };
    await assert.rejects(
      client.connect(
        new StdioClientTransport({ command: process.execPath, args: [BIN, 'stdio'], env, stderr: 'pipe' }),
      ),
      /WARDEN_TOKEN is not set/,
    );
  });

  it('--anonymous serves the anonymous tier on purpose, and says so on stderr', () => {
    const r = run(['--anonymous'], {});
    assert.equal(r.status, 0);
    assert.match(r.stderr, /serving the anonymous tier \(3 tools\), as --anonymous asks/);
    assert.match(r.stderr, /set WARDEN_TOKEN/);
  });

  it('--anonymous with a WARDEN_TOKEN contradicts itself: it does not start', () => {
    const r = run(['--anonymous'], { WARDEN_TOKEN: member });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /WARDEN_TOKEN is set and --anonymous asks for no token/);
  });

  it('a bad WARDEN_TOKEN stops the process loudly instead of serving anonymous', () => {
    const r = spawnSync(process.execPath, [BIN, 'stdio'], {
      env: {
        PATH: process.env['PATH'] ?? '',
        WARDEN_DB: join(club.dir, 'club.db'),
        WARDEN_TOKEN: 'wdn_nonsense',
      },
      input: '',
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /WARDEN_TOKEN was rejected \(malformed\)/);
    assert.equal(r.stdout, '');
  });
});
