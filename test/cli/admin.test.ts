import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/cli/io.ts';

const BIN = join(import.meta.dirname, '../../bin/warden.js');

describe('admin CLI', () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-'));
    db = join(dir, 'club.db');
    assert.equal(await main(['admin', 'init'], bufferIo({ WARDEN_DB: db })), 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** In-process run with captured output: the same code path as the executable. */
  async function run(...argv: string[]) {
    const io = bufferIo({ WARDEN_DB: db });
    const code = await main(argv, io);
    return { code, out: io.out.join(''), err: io.err.join('') };
  }

  it('adds, admits, lists and shows principals', async () => {
    assert.equal(
      (await run('admin', 'principal', 'add', 'alice', '--status', 'member', '--name', 'Alice A.')).code,
      0,
    );
    assert.equal((await run('admin', 'principal', 'add', 'bob')).code, 0);
    const dup = await run('admin', 'principal', 'add', 'bob');
    assert.equal(dup.code, 1);
    assert.match(dup.err, /refused \(conflict\)/);
    const bad = await run('admin', 'principal', 'add', 'Bad Handle!');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /not a valid handle/);
    assert.equal((await run('admin', 'principal', 'admit', 'bob')).code, 0);
    const list = JSON.parse((await run('admin', 'principal', 'list', '--json')).out) as {
      handle: string;
      status: string;
    }[];
    assert.deepEqual(
      list.map((p) => [p.handle, p.status]),
      [
        ['alice', 'member'],
        ['bob', 'member'],
      ],
    );
    const shown = JSON.parse((await run('admin', 'principal', 'show', 'alice', '--json')).out) as {
      display_name: string;
    };
    assert.equal(shown.display_name, 'Alice A.');
  });

  it('adding a handle that exists refuses with conflict, changes nothing, and names the act that would', async () => {
    assert.equal((await run('admin', 'principal', 'add', 'cora', '--status', 'member')).code, 0);
    const again = await run('admin', 'principal', 'add', 'cora', '--status', 'member', '--operator');
    assert.equal(again.code, 1);
    assert.match(
      again.err,
      /refused \(conflict\): A principal with the handle "cora" exists already \(member\); nothing was changed\./,
    );
    assert.match(again.err, /make them an operator \(warden admin operator grant cora\)/);
    const shown = JSON.parse((await run('admin', 'principal', 'show', 'cora', '--json')).out) as {
      operator: boolean;
    };
    assert.equal(shown.operator, false, 'the refused add made no operator');
    assert.equal((await run('admin', 'principal', 'add', 'dan')).code, 0);
    const admit = await run('admin', 'principal', 'add', 'dan', '--status', 'member');
    assert.match(admit.err, /admit them \(warden admin principal admit dan\)/);
    const same = await run('admin', 'principal', 'add', 'dan');
    assert.match(same.err, /Use dan as they are, or choose another handle\./);
    assert.equal((await run('admin', 'operator', 'grant', 'cora')).code, 0, 'the act the hint names works');
  });

  it('lists principals a bounded page at a time, by status and words, and says how to go on', async () => {
    for (const h of ['pa1', 'pa2', 'pa3', 'pa4', 'pa5'])
      assert.equal((await run('admin', 'principal', 'add', h, '--name', `Paged ${h}`)).code, 0);
    const handles = (out: string) =>
      out
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]);
    const list = (...more: string[]) =>
      run('admin', 'principal', 'list', '--status', 'candidate', '--query', 'paged', '--limit', '2', ...more);
    const first = await list();
    assert.equal(first.code, 0);
    assert.deepEqual(handles(first.out), ['pa1', 'pa2']);
    assert.match(first.err, /More: add --after pa2 to continue/);
    const json = await list('--after', 'pa4', '--json');
    assert.deepEqual(
      (JSON.parse(json.out) as { handle: string }[]).map((p) => p.handle),
      ['pa5'],
    );
    assert.equal(json.err, '', 'the last page says nothing of more');
    for (const [flag, value] of [
      ['--limit', '0'],
      ['--limit', '1.5'],
      ['--limit', '10001'],
      ['--status', 'ghost'],
    ] as const) {
      const bad = await run('admin', 'principal', 'list', flag, value);
      assert.equal(bad.code, 2, `${flag} ${value}`);
      assert.match(bad.err, new RegExp(flag));
    }
  });

  it('prints an issued token alone on stdout, details on stderr', () => {
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        'admin',
        'token',
        'issue',
        'alice',
        '--scopes',
        'inbox,mandate:read',
        '--label',
        'laptop',
        '--db',
        db,
      ],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^wdn_[A-Za-z0-9_-]{43}\n$/);
    assert.match(r.stderr, /Shown once/);
    assert.match(r.stderr, /sees 7 tools/);
  });

  it('refuses mandate:write, unknown and above-tier scopes with exit 1 and the reason', async () => {
    await run('admin', 'principal', 'add', 'cand');
    for (const [handle, scopes, code] of [
      ['alice', 'mandate:write', 'scope_not_grantable'],
      ['alice', 'inbox,telepathy', 'unknown_scope'],
      ['cand', 'consult', 'above_tier'],
    ]) {
      const r = await run('admin', 'token', 'issue', handle!, '--scopes', scopes!);
      assert.equal(r.code, 1, scopes);
      assert.equal(r.out, '', 'no token printed');
      assert.match(r.err, new RegExp(`refused \\(${code}\\)`));
    }
  });

  it('lists and revokes tokens', async () => {
    const issued = JSON.parse(
      (await run('admin', 'token', 'issue', 'bob', '--scopes', 'inbox', '--json', '--expires', '1d')).out,
    ) as {
      id: string;
      token: string;
      tools_today: string[];
    };
    assert.match(issued.token, /^wdn_/);
    assert.equal(issued.tools_today.length, 5);
    const listed = JSON.parse((await run('admin', 'token', 'list', 'bob', '--json')).out) as { id: string }[];
    assert.deepEqual(
      listed.map((t) => t.id),
      [issued.id],
    );
    assert.equal(
      JSON.stringify(listed).includes(issued.token),
      false,
      'the token itself is never shown again',
    );
    assert.equal((await run('admin', 'token', 'revoke', issued.id)).code, 0);
    const again = await run('admin', 'token', 'revoke', issued.id);
    assert.equal(again.code, 1);
    assert.match(again.err, /revoked already/);
  });

  it('shows and sets a mandate', async () => {
    const set = await run(
      'admin',
      'mandate',
      'set',
      'alice',
      '--scopes',
      'inbox,consult',
      '--consult-counterparts',
      'bob',
      '--consult-daily',
      '3',
      '--reviews-need-approval',
      'false',
      '--json',
    );
    assert.equal(set.code, 0, set.err);
    assert.deepEqual(JSON.parse(set.out), {
      handle: 'alice',
      scopes: ['inbox', 'consult'],
      consult_counterparts: ['bob'],
      consult_daily_limit: 3,
      reviews_need_approval: false,
      answer_counterparts: 'consult',
      inbox_changes_need_approval: true,
      name_changes_need_approval: true,
      profile_text_needs_approval: false,
      self_reports_need_approval: true,
      denial_window_days: 30,
    });
    const refused = await run('admin', 'mandate', 'set', 'alice', '--consult-counterparts', 'nobody-here');
    assert.equal(refused.code, 1);
    const shown = await run('admin', 'mandate', 'show', 'alice');
    assert.match(shown.out, /consult counterparts: bob/);
    assert.match(shown.out, /answer counterparts: the consult counterparts/);
  });

  it('sets the terms for answers, profile changes, self-reports and denials', async () => {
    const set = await run(
      'admin',
      'mandate',
      'set',
      'alice',
      '--answer-counterparts',
      'any',
      '--inbox-needs-approval',
      'false',
      '--name-needs-approval',
      'false',
      '--profile-text-needs-approval',
      'true',
      '--self-reports-need-approval',
      'false',
      '--denial-window-days',
      '7',
      '--json',
    );
    assert.equal(set.code, 0, set.err);
    const m = JSON.parse(set.out) as Record<string, unknown>;
    assert.equal(m['answer_counterparts'], 'any');
    assert.equal(m['inbox_changes_need_approval'], false);
    assert.equal(m['name_changes_need_approval'], false);
    assert.equal(m['profile_text_needs_approval'], true);
    assert.equal(m['self_reports_need_approval'], false);
    assert.equal(m['denial_window_days'], 7);
    const shown = await run('admin', 'mandate', 'show', 'alice');
    assert.match(shown.out, /a denial holds for: 7 days/);
    for (const [option, value, reason] of [
      ['--denial-window-days', '366', /from 0 to 365; got "366"/],
      ['--denial-window-days', 'week', /whole number of days/],
      ['--self-reports-need-approval', 'maybe', /takes true or false; got "maybe"/],
      ['--answer-counterparts', 'nobody-here', /nobody-here/],
    ] as const) {
      const bad = await run('admin', 'mandate', 'set', 'alice', option, value);
      assert.equal(bad.code, 1, `${option} ${value}`);
      assert.match(bad.err, reason);
    }
    const after = await run('admin', 'mandate', 'show', 'alice', '--json');
    assert.equal((JSON.parse(after.out) as Record<string, unknown>)['denial_window_days'], 7, 'nothing lost');
  });

  it('exits 2 with a usage message for bad invocations', async () => {
    for (const argv of [
      ['admin', 'nope', 'x'],
      ['admin', 'token', 'issue', 'alice'],
      ['admin', 'principal', 'add'],
      ['frobnicate'],
      ['admin', 'principal', 'list', '--bogus'],
    ]) {
      const r = await run(...argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.ok(r.err.length > 0);
    }
  });

  it('warden serve prints the MCP URL and serves it', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /MCP server at (http:\/\/localhost:\d+\/mcp)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      const tiers = await fetch(url.replace(/\/mcp$/, '/tiers'));
      assert.equal(tiers.status, 200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('store locations on screen', () => {
  it('never print a PostgreSQL password', async () => {
    const { displayLocation } = await import('../../src/cli/common.ts');
    assert.equal(
      displayLocation('postgres://warden:s3cret@db.example:5432/club'),
      'postgres://warden:***@db.example:5432/club',
    );
    assert.equal(displayLocation('.warden/warden.db'), '.warden/warden.db');
    const io = bufferIo({});
    const code = await main(
      ['admin', 'principal', 'list', '--db', 'postgres://warden:s3cret@127.0.0.1:1/none'],
      io,
    );
    assert.equal(code, 2);
    assert.doesNotMatch(io.err.join(''), /s3cret/);
  });
});

describe('warden --version and --help', () => {
  it('prints the package version and a usage that names every command', async () => {
    const v = bufferIo({});
    assert.equal(await main(['--version'], v), 0);
    assert.match(v.out.join(''), /^warden \d+\.\d+\.\d+\n$/);
    const h = bufferIo({});
    assert.equal(await main(['--help'], h), 0);
    for (const cmd of ['serve', 'stdio', 'admin', 'gate', 'doctor'])
      assert.match(h.out.join(''), new RegExp(`\\n  ${cmd} `));
  });
});
