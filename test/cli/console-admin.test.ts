// The console's headless side: sign-in links and the operator role from the admin CLI.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hashSecret } from '../../src/admin/console-links.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { openStore } from '../../src/store/index.ts';

void describe('admin CLI: console sign-in links and operators', () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-'));
    db = join(dir, 'club.db');
    assert.equal(await main(['admin', 'init'], bufferIo({ WARDEN_DB: db })), 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function run(env: Record<string, string>, ...argv: string[]) {
    const io = bufferIo({ WARDEN_DB: db, ...env });
    const code = await main(argv, io);
    return { code, out: io.out.join(''), err: io.err.join('') };
  }

  void it('adds an operator, and grants and revokes the role', async () => {
    const added = await run(
      {},
      'admin',
      'principal',
      'add',
      'olga',
      '--status',
      'member',
      '--operator',
      '--json',
    );
    assert.equal(added.code, 0);
    assert.equal(JSON.parse(added.out).operator, true);
    assert.equal((await run({}, 'admin', 'principal', 'add', 'bob', '--status', 'member')).code, 0);
    assert.equal((await run({}, 'admin', 'operator', 'grant', 'bob')).code, 0);
    const twice = await run({}, 'admin', 'operator', 'grant', 'bob');
    assert.equal(twice.code, 1);
    assert.match(twice.err, /refused \(conflict\): bob is an operator already/);
    assert.equal((await run({}, 'admin', 'operator', 'revoke', 'bob')).code, 0);
    assert.equal(
      JSON.parse((await run({}, 'admin', 'principal', 'show', 'bob', '--json')).out).operator,
      false,
    );
  });

  void it('login-link prints a one-time URL under the public URL; only its hash is stored', async () => {
    const r = await run(
      { WARDEN_PUBLIC_URL: 'https://club.example' },
      'admin',
      'principal',
      'login-link',
      'olga',
    );
    assert.equal(r.code, 0);
    const url = r.out.trim();
    assert.match(url, /^https:\/\/club\.example\/console\/link\?t=[A-Za-z0-9_-]{43}$/);
    assert.match(r.err, /works once, until/);
    const secret = new URL(url).searchParams.get('t')!;
    const store = await openStore(db);
    try {
      const rows = await (
        store as unknown as { sql: { all(q: string): Promise<Record<string, unknown>[]> } }
      ).sql.all('SELECT hash FROM console_links');
      assert.deepEqual(
        rows.map((x) => x['hash']),
        [hashSecret(secret)],
      );
      assert.ok(!JSON.stringify(rows).includes(secret));
    } finally {
      await store.close();
    }
    const json = await run(
      {},
      'admin',
      'principal',
      'login-link',
      'olga',
      '--expires',
      '2h',
      '--json',
      '--public-url',
      'http://localhost:9000',
    );
    const parsed = JSON.parse(json.out) as { url: string; handle: string; expires_at: string };
    assert.match(parsed.url, /^http:\/\/localhost:9000\/console\/link\?t=/);
    assert.equal(parsed.handle, 'olga');
    const hours = (Date.parse(parsed.expires_at) - Date.now()) / 3_600_000;
    assert.ok(hours > 1.9 && hours <= 2, String(hours));
  });

  void it('refuses a bad expiry, an unknown handle and a suspended principal, with the reason', async () => {
    const bad = await run({}, 'admin', 'principal', 'login-link', 'olga', '--expires', '30d');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /between 1 minute and 7 days/);
    const unknown = await run({}, 'admin', 'principal', 'login-link', 'nobody');
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /not_found/);
    assert.equal((await run({}, 'admin', 'principal', 'suspend', 'bob')).code, 0);
    const suspended = await run({}, 'admin', 'principal', 'login-link', 'bob');
    assert.equal(suspended.code, 1);
    assert.match(suspended.err, /refused \(suspended\).*Reinstate bob first/);
    assert.equal((await run({}, 'admin', 'principal', 'reinstate', 'bob')).code, 0);
    assert.equal((await run({}, 'admin', 'principal', 'login-link', 'bob')).code, 0);
  });
});
