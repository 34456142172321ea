import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ItemReport } from '../../src/compat/index.ts';
import type { Entry } from '../../src/lock/order.ts';
import { groupEntries, groupTitle, ITEMS_PER_GROUP, spread } from '../../src/report/groups.ts';
import { gate } from './fixture.ts';

function entry(
  server: string,
  kind: string,
  name: string,
  change: string,
  rule: string,
  verdict = 'breaking',
): Entry {
  const item = {
    kind,
    name,
    verdict,
    change,
    oldHash: null,
    newHash: null,
    findings: [{ rule, verdict, pointer: '', args: {} }],
  } as unknown as ItemReport;
  return { server, item };
}

describe('groups (report/groups.ts)', () => {
  it('groups by server, verdict, kind and change, breaking first, the largest group first', () => {
    const entries = [
      entry('a', 'tool', 't1', 'removed', 'tool-removed'),
      entry('a', 'tool', 't2', 'changed', 'type-narrowed'),
      entry('a', 'resource', 'r1', 'removed', 'resource-removed'),
      entry('a', 'resource', 'r2', 'removed', 'resource-removed'),
      entry('a', 'tool', 't3', 'changed', 'type-narrowed'),
      entry('a', 'tool', 't4', 'changed', 'property-became-required'),
      entry('a', 'instructions', '', 'changed', 'instructions-changed', 'compatible'),
      entry('b', 'tool', 't5', 'added', 'tool-added', 'compatible'),
      entry('a', 'server', '(server)', 'changed', 'server-name-changed', 'unknown'),
      entry('a', 'tool', 't6', 'unchanged', 'tool-not-conformant', 'unknown'),
    ];
    const groups = groupEntries(entries);
    assert.deepEqual(
      groups.map(
        (g) => `${g.verdict}: ${groupTitle(g, true)} [${g.entries.map((e) => e.item.name).join(' ')}]`,
      ),
      [
        // Of two groups the same size, the one met first.
        'breaking: a: 2 tools changed (type-narrowed) [t2 t3]',
        'breaking: a: 2 resources removed [r1 r2]',
        'breaking: a: 1 tool removed [t1]',
        'breaking: a: 1 tool changed (property-became-required) [t4]',
        'unknown: a: server changed (server-name-changed) [(server)]',
        'unknown: a: 1 tool flagged (tool-not-conformant) [t6]',
        'compatible: a: instructions changed (instructions-changed) []',
        'compatible: b: 1 tool added [t5]',
      ],
    );
    assert.equal(groupTitle(groups[1]!, false, 1), '1 resource removed');
    // An added item whose verdict another finding explains says which.
    const odd = groupEntries([entry('a', 'tool', 'x', 'added', 'text-addressed-to-model', 'unknown')]);
    assert.equal(groupTitle(odd[0]!, false), '1 tool added (text-addressed-to-model)');
  });

  it('spreads a bounded selection over every group before taking a second from any', () => {
    const big = Array.from({ length: 50 }, (_, i) =>
      entry('a', 'resource', `r${i}`, 'removed', 'resource-removed'),
    );
    const small = [
      entry('a', 'tool', 't', 'removed', 'tool-removed'),
      entry('a', 'tool', 'u', 'removed', 'tool-removed'),
    ];
    const groups = groupEntries([...big, ...small, entry('a', 'prompt', 'p', 'removed', 'prompt-removed')]);
    const names = [...spread(groups, 5)].map((e) => e.item.name);
    assert.deepEqual(names, ['r0', 't', 'p', 'r1', 'u']);
    assert.equal(spread(groups, 100).size, 53, 'never more than there are');
    assert.equal(spread(groups, 0).size, 0);
  });
});

// The flood of a large upgrade, by hand: 120 tools and 100 resources removed, one tool kept.
const tools = Array.from({ length: 121 }, (_, i) => ({
  name: `tool_${String(i).padStart(3, '0')}`,
  inputSchema: { type: 'object' },
}));
const resources = Array.from({ length: 100 }, (_, i) => ({
  uri: `test://static/resource/${i + 1}`,
  name: `Resource ${i + 1}`,
}));

let dir = '';
const cwd = process.cwd();
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden flood '));
  process.chdir(dir);
  fs.writeFileSync('v1.json', JSON.stringify({ tools, resources }));
  fs.writeFileSync('v2.json', JSON.stringify({ tools: tools.slice(0, 1), resources: [] }));
  assert.equal((await gate(['pin', '--manifest', 'v1.json'])).code, 0);
});
after(() => {
  process.chdir(cwd);
  fs.rmSync(dir, { recursive: true, force: true });
});

const check = (...more: string[]) => gate(['check', '--manifest', 'v2.json', ...more]);

describe('a flood: 120 tools and 100 resources removed', () => {
  it('text: a group per kind of change, its first few items listed, the rest counted, one bulk accept', async () => {
    const { code, out } = await check();
    assert.equal(code, 1);
    const lines = out.trimEnd().split('\n');
    assert.deepEqual(
      lines.filter((l) => !l.startsWith('  ')),
      [
        'breaking: 120 tools removed',
        'breaking: 100 resources removed',
        "accept them all at once, once reviewed as a whole: warden-gate accept --lock mcp-lock.json --manifest v2.json --all --reason 'WHY'",
        '220 breaking, 1 identical in 1 server',
      ],
    );
    assert.equal(lines.filter((l) => /^ {2}\S/.test(l) && !l.startsWith('  …')).length, 2 * ITEMS_PER_GROUP);
    assert.ok(lines.includes('  … and 110 more are not listed (--verbose lists every one)'));
    assert.ok(lines.includes('  … and 90 more are not listed (--verbose lists every one)'));
    // 441 lines before grouping (an item line and an accept line each, and the summary).
    assert.ok(lines.length <= 50, `${lines.length} lines`);
    const all = await check('--verbose');
    assert.equal(
      all.out.split('\n').filter((l) => /^ {2}\S/.test(l)).length,
      220,
      '--verbose lists every one',
    );
    assert.doesNotMatch(all.out, /--all/);
  });

  it('markdown: the groups in a line each, the table bounded per group with a row counting the rest', async () => {
    const { out } = await check('--format', 'markdown');
    assert.match(out, /^- ❌ breaking: 120 tools removed\n- ❌ breaking: 100 resources removed\n/m);
    const rows = out.split('\n').filter((l) => l.startsWith('| ❌ |'));
    assert.equal(rows.length, 2 * ITEMS_PER_GROUP + 2);
    assert.ok(rows.includes('| ❌ | *… and 110 more: 110 tools removed* | breaking | | |'));
    assert.ok(rows.includes('| ❌ | *… and 90 more: 90 resources removed* | breaking | | |'));
    assert.equal(out.split('<details>').length - 1, 2 * ITEMS_PER_GROUP, 'details only for listed items');
    assert.match(
      out,
      /```sh\nwarden-gate accept --lock mcp-lock\.json --manifest v2\.json --all --reason 'WHY'\n```/,
    );
    assert.ok(out.split('\n').length < 300, `${out.split('\n').length} lines`);
  });

  it('github: at most 10 error annotations, all 220 counted in the groups the text names', async () => {
    const { out } = await check('--format', 'github');
    const errors = out.split('\n').filter((l) => l.startsWith('::error '));
    assert.equal(errors.length, 10);
    assert.equal(out.split('\n').filter((l) => /^::(warning|notice) /.test(l)).length, 0);
    // Nine items, the first of each group before the second of any, then one counting the rest.
    const named = errors.slice(0, 9).map((l) => /title=warden gate%3A (\S+)/.exec(l)?.[1]);
    assert.deepEqual(named, [
      ...Array(5)
        .fill('tool_00')
        .map((t, i) => `${t}${i + 1}`),
      ...Array(4).fill('resource'),
    ]);
    assert.match(
      errors[9] ?? '',
      /::211 more breaking changes, not annotated one by one: 115 tools removed, 96 resources removed /,
    );
    assert.match(out, /^breaking: 115 tools removed: tool_006, .* and 95 more$/m);
    assert.match(out, /^breaking: 96 resources removed: .* and 76 more$/m);
    assert.match(out, /^warden gate: 220 breaking, 1 identical in 1 server$/m);
  });

  it('the bulk accept it offers takes every change in with its one reason', async () => {
    const r = await gate(['accept', '--manifest', 'v2.json', '--all', '--reason', 'the 2026 rewrite']);
    assert.equal(r.code, 0, r.err);
    const lock = JSON.parse(fs.readFileSync('mcp-lock.json', 'utf8')) as { audit: { reason?: string }[] };
    assert.equal(lock.audit.filter((a) => a.reason === 'the 2026 rewrite').length, 220);
    assert.deepEqual(await check(), { code: 0, out: '', err: '' });
  });
});
