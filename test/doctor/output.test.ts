import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startClub, type TestClub } from '../helpers/club.ts';
import { doctor, tempDir, writeConfig } from './support.ts';

const ESC = '\u001b[';
const STABLE = ['name', 'url', 'tier', 'tools', 'total', 'reasons', 'ok'];

describe('doctor output: the --json contract and the human lines', () => {
  let club: TestClub;
  let tmp: ReturnType<typeof tempDir>;
  let token: string;
  before(async () => {
    club = await startClub();
    tmp = tempDir();
    token = (await club.addMember('alice')).token;
  });
  after(async () => {
    await club.close();
    tmp.remove();
  });

  it('--json is { servers: [ { name, url, tier, tools, total, reasons, ok, … } ] }, in that order', async () => {
    const file = writeConfig(tmp.dir, 'json/.mcp.json', {
      mcpServers: {
        member: { type: 'http', url: club.server.mcpUrl, headers: { Authorization: `Bearer ${token}` } },
        anonymous: { type: 'http', url: club.server.mcpUrl },
      },
    });
    const run = await doctor(['--config', file, '--json']);
    assert.equal(run.code, 0);
    const parsed = JSON.parse(run.out) as { servers: Record<string, unknown>[] };
    assert.ok(Array.isArray(parsed.servers));
    assert.equal(parsed.servers.length, 2);
    for (const s of parsed.servers) assert.deepEqual(Object.keys(s).slice(0, STABLE.length), STABLE);
    const [member, anonymous] = parsed.servers;
    assert.deepEqual(
      STABLE.map((k) => member?.[k]),
      ['member', club.server.mcpUrl, 'member', 14, 15, member?.['reasons'], true],
    );
    assert.deepEqual(
      STABLE.map((k) => anonymous?.[k]),
      [
        'anonymous',
        club.server.mcpUrl,
        'anonymous',
        3,
        15,
        ['this configuration sends no Authorization header'],
        true,
      ],
    );
  });

  it('human output: ✓/✗ per check, the reason under the tier, the fix last, no colour off a terminal', async () => {
    const file = writeConfig(tmp.dir, 'human/.mcp.json', {
      mcpServers: { club: { type: 'http', url: club.server.mcpUrl } },
    });
    const run = await doctor(['--config', file, '--expect', 'member']);
    assert.equal(run.code, 1);
    const lines = run.out.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^club {2}http:\/\/localhost:\d+\/mcp \(Claude Code \.mcp\.json\)$/);
    assert.ok(lines.includes(`  ✗ tier: anonymous — 3 of 15 tools (expected member)`), run.out);
    const tier = lines.findIndex((l) => l.includes('✗ tier:'));
    assert.equal(lines[tier + 1], '      this configuration sends no Authorization header');
    const fix = lines.findIndex((l) => l.startsWith('  fix: '));
    assert.ok(fix > tier);
    assert.ok(
      lines.slice(fix + 1).every((l) => !l.startsWith('  ')),
      'the fix is the last line of its block',
    );
    assert.equal(lines.at(-1), '1 server checked: 0 healthy, 1 not (exit 1)');
    assert.ok(!run.out.includes(ESC));
  });

  it('a healthy report still offers its fix, marked as optional', async () => {
    const run = await doctor([club.server.mcpUrl]);
    assert.equal(run.code, 0);
    assert.match(run.out, /^ {2}fix \(if this is not what you meant\): rerun with --token wdn_…/m);
  });

  it('colours on a terminal, and never with NO_COLOR', async () => {
    const tty = await doctor([club.server.mcpUrl], {}, true);
    assert.ok(tty.out.includes(`${ESC}32m✓${ESC}0m`), tty.out);
    const noColor = await doctor([club.server.mcpUrl], { NO_COLOR: '1' }, true);
    assert.ok(!noColor.out.includes(ESC));
  });

  it('--help documents the exit codes and exits 0', async () => {
    const run = await doctor(['--help']);
    assert.equal(run.code, 0);
    assert.match(run.out, /Exit codes:\n {2}0 {2}every server healthy/);
  });

  it('usage errors exit 2 and say what is wrong', async () => {
    for (const [args, message] of [
      [[], /one URL or --config FILE is needed/],
      [[club.server.mcpUrl, '--expect', 'admin'], /--expect must be anonymous, candidate or member/],
      [[club.server.mcpUrl, '--token', 't', '--header', 'Authorization: Bearer u'], /not both/],
      [['--config', 'x.json', club.server.mcpUrl], /not both/],
      [['ftp://example/mcp'], /is not an http\(s\) URL/],
    ] as const) {
      const run = await doctor([...args]);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.err, message);
    }
  });
});
