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
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'stdio'], env, stderr: 'pipe' }),
    );
    return client;
  }

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
