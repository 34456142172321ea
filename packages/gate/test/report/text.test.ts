import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { acceptSource } from '../../src/cli/accept-source.ts';
import { parseGateArgs, SOURCE_OPTIONS } from '../../src/cli/options.ts';
import { gate, workspace } from './fixture.ts';

let done = (): void => undefined;
before(async () => {
  ({ done } = workspace());
  assert.equal((await gate(['pin', '--manifest', 'v1.json'])).code, 0);
});
after(() => done());

const check = (...more: string[]) =>
  gate(['check', '--manifest', 'v2.json', '--calls', 'calls.jsonl', ...more]);

describe('the text report on a release with one break among many changes', () => {
  it('groups the items by kind of change, breaks first, every finding a person must read, the summary last', async () => {
    const r = await check();
    assert.equal(r.code, 1);
    const lines = r.out.trimEnd().split('\n');
    const items = lines.slice(
      0,
      lines.findIndex((l) => l.startsWith('replay')),
    );
    assert.deepEqual(
      items.filter((l) => !l.startsWith('  ')),
      [
        'breaking: 1 tool removed',
        'breaking: 1 tool changed (type-narrowed)',
        'unknown: 1 skill changed (skill-allowed-tools-changed)',
        // Compatible changes need no hand: a line per group, naming its items.
        'compatible: 1 tool added: read_text_file',
        'compatible: 1 prompt changed (prompt-argument-added): summarize',
      ],
    );
    assert.deepEqual(
      items.filter((l) => /^ {2}\S/.test(l)).map((l) => l.replace(/ —.*/, '')),
      ['  read_file: breaking', '  search: breaking', '  skill skill://docs/SKILL.md: unknown'],
    );
    assert.equal(lines.at(-1), '2 breaking, 1 unknown, 2 compatible, 3 identical in 1 server');
    const search = lines.slice(lines.findIndex((l) => l.startsWith('  search:')));
    assert.match(search[0] ?? '', /^ {2}search: breaking — .*; \+1 compatible\)$/);
    assert.deepEqual(
      search.slice(1, 3).map((l) => l.replace(/ —.*\((\S+) at .*/, ' $1')),
      ['    breaking property-added-required', '    breaking replay-rejected-call'],
    );
    assert.match(
      search[3] ?? '',
      /^ {4}accept: warden-gate accept --lock mcp-lock\.json --manifest v2\.json --tool search@sha256:[0-9a-f]{64}$/,
    );
    assert.ok(
      lines.includes(
        '    accept: warden-gate accept --lock mcp-lock.json --manifest v2.json --tool read_file@removed',
      ),
    );
    assert.match(r.out, /^ {4}accept: .* --item skill:skill:\/\/docs\/SKILL\.md@sha256:[0-9a-f]{64}$/m);
    assert.doesNotMatch(r.out, /accept: .*(summarize|read_text_file)/, 'compatible changes need no hand');
    assert.doesNotMatch(r.out, /--all/, 'every change is listed: no bulk accept offered');
    assert.match(r.out, /^maybe renamed: read_file → read_text_file$/m);
  });

  it('replay shows each rejected call, its arguments bounded, and why', async () => {
    const { out } = await check();
    assert.match(out, /^replay: 2 of 3 recorded calls that were valid are now rejected$/m);
    assert.match(
      out,
      /^ {2}line 2: search \{"q":"readme","limit":10\} — \/ must have required property 'path'$/m,
    );
    const long = out.split('\n').find((l) => l.startsWith('  line 3: search '));
    assert.ok(long && long.length < 320 && long.includes('…'), long);
  });

  it('--verbose lists the compatible findings and items too', async () => {
    const { out } = await check('--verbose');
    assert.match(
      out,
      /^ {4}compatible — tool description changed: Search \[-files-\]\{\+`files` \| fast\+\}/m,
    );
    assert.doesNotMatch(out, /\+1 compatible/);
    assert.match(out, /^compatible: 1 tool added\n {2}read_text_file: compatible — tool added/m);
  });

  it('the accept commands it prints bless exactly those changes', async () => {
    const { out } = await check();
    const commands = out
      .split('\n')
      .filter((l) => l.startsWith('    accept: '))
      .map((l) => l.slice(12));
    assert.equal(commands.length, 3);
    for (const command of commands) {
      const argv = command.split(' ').slice(1);
      const r = await gate(argv);
      assert.notEqual(r.code, 3, r.err);
    }
    const again = await check('--verbose');
    assert.equal(again.code, 0, again.out);
    assert.equal((await check()).out, '', 'silent once every change is accepted');
    assert.equal(again.out.trimEnd().split('\n').at(-1), 'no change: 7 items identical in 1 server');
    assert.equal((await gate(['pin', '--manifest', 'v1.json', '--force'])).code, 0);
  });

  it('under a host, the commands carry its name', async () => {
    const r = await gate(['check', '--manifest', 'v2.json'], 'warden gate');
    assert.match(
      r.out,
      /^ {4}accept: warden gate accept --lock mcp-lock\.json --manifest v2\.json --tool search@/m,
    );
  });
});

describe('the source options an accept command repeats', () => {
  it('masks every header value, a URL password and an input value; keeps a command after --', () => {
    const args = parseGateArgs(
      [
        '--url',
        'https://ann:pw@mcp.example/mcp?x=1',
        '--header',
        'Authorization: Bearer s3cret',
        '--header',
        'X-Key: k',
        '--lock',
        'l.json',
      ],
      [...SOURCE_OPTIONS, 'lock'],
    );
    assert.deepEqual(acceptSource(args), {
      lock: 'l.json',
      options: [
        '--url',
        'https://ann:***@mcp.example/mcp?x=1',
        '--header',
        'Authorization: ***',
        '--header',
        'X-Key: ***',
      ],
      command: [],
      serverGiven: false,
    });
    const stdio = parseGateArgs(['--', 'node', 'my server.js'], [...SOURCE_OPTIONS]);
    assert.deepEqual(acceptSource(stdio).command, ['node', 'my server.js']);
  });
});
