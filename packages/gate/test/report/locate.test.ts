import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { ItemReport } from '../../src/compat/index.ts';
import { keyLines, lineOf, pinnedPath } from '../../src/report/locate.ts';
import { buildLock, lockServer, writeLock } from '../../src/lock/lockfile.ts';

const NAMES = [
  'search',
  'say "hi"',
  'a/b~c~1',
  'café ☕ 名前',
  '__proto__',
  'tools',
  'back\\slash',
  'x\u202ey',
];

/** A tool whose schema mentions every other name as a property, before the tool itself is pinned. */
const tool = (name: string) => ({
  name,
  description: 'braces in text: {"search": "}", [ ] and "quotes"',
  inputSchema: { type: 'object', properties: Object.fromEntries(NAMES.map((n) => [n, { type: 'string' }])) },
});

/** The lock as writeLock writes it: two servers pinning the same names, with prompts and skills. */
function writtenLock(): string {
  const snapshot = {
    tools: [{ ...tool('aaa'), name: 'aaa' }, ...NAMES.map(tool)],
    instructions: 'Use "search" first.',
    identity: { name: 'demo', version: '1' },
    prompts: [{ name: 'greet' }, { name: 'say "hi"' }],
    skills: [{ uri: 'skill://x/SKILL.md', frontmatter: { name: 'x' }, resources: [] }],
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-locate-'));
  try {
    const file = path.join(dir, 'lock.json');
    writeLock(file, buildLock({ other: lockServer(snapshot), default: lockServer(snapshot) }, []));
    return fs.readFileSync(file, 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The oracle, by another road: writeLock indents by two spaces, so a key at depth d starts a
 * line with 2d spaces. Walk down the path, each key searched only inside its parent's block.
 */
function oracle(text: string, keys: string[]): number {
  const lines = text.split('\n');
  let from = 0;
  let to = lines.length;
  keys.forEach((key, depth) => {
    const head = `${' '.repeat(2 * (depth + 1))}${JSON.stringify(key)}: `;
    const at = lines.findIndex((l, i) => i >= from && i < to && l.startsWith(head));
    assert.ok(at >= 0, `no ${keys.slice(0, depth + 1).join(' / ')}`);
    const close = ' '.repeat(2 * (depth + 1));
    const end = lines.findIndex(
      (l, i) => i > at && l.startsWith(close) && /^[}\]]/.test(l.slice(close.length)),
    );
    [from, to] = [at, end < 0 ? lines.length : end + 1];
  });
  return from + 1;
}

const report = (
  kind: ItemReport['kind'],
  name: string,
  rule: ItemReport['findings'][number]['rule'] = 'type-narrowed',
): ItemReport => ({
  kind,
  name,
  verdict: 'breaking',
  change: 'changed',
  oldHash: null,
  newHash: null,
  findings: [{ rule, verdict: 'breaking', pointer: '', args: {} }],
});

describe('where a lockfile pins an item', () => {
  const text = writtenLock();
  const index = keyLines(text);

  for (const server of ['default', 'other']) {
    for (const name of NAMES) {
      it(`${server}: tool ${JSON.stringify(name)} at its own key, not a property of the same name`, () => {
        const line = lineOf(index, pinnedPath(server, report('tool', name)));
        assert.equal(line, oracle(text, ['servers', server, 'tools', name]));
        assert.match(text.split('\n')[line - 1] ?? '', /^ {8}".*": \{$/);
      });
    }
  }

  for (const [kind, name, keys] of [
    ['prompt', 'say "hi"', ['servers', 'default', 'prompts', 'say "hi"']],
    ['skill', 'skill://x/SKILL.md', ['servers', 'default', 'skills', 'skill://x/SKILL.md']],
    ['instructions', '(instructions)', ['servers', 'default', 'instructions']],
    ['server', '(server)', ['servers', 'default', 'server']],
    ['tool', 'added-later', ['servers', 'default', 'tools']],
    ['prompt', 'new-prompt', ['servers', 'other', 'prompts']],
    ['resource', 'file:///nowhere', ['servers', 'other']],
  ] as const) {
    it(`${kind} ${name}: line of ${keys.slice(2).join(' / ') || 'the server'}`, () => {
      const server = keys[1];
      assert.equal(lineOf(index, pinnedPath(server, report(kind, name))), oracle(text, [...keys]));
    });
  }

  it('a server that comes or goes is anchored to the server itself', () => {
    const line = lineOf(index, pinnedPath('other', report('server', '(server)', 'server-removed')));
    assert.equal(line, oracle(text, ['servers', 'other']));
  });

  it('a server the lock does not have falls back to line 1', () => {
    assert.equal(lineOf(index, pinnedPath('missing', report('tool', 'search'))), 1);
  });

  it('a version 1 lock keeps its tools at the top', () => {
    const v1 =
      '{\n  "lockfileVersion": 1,\n  "tools": {\n    "a\\"b": {\n      "hash": "x"\n    },\n    "c": {}\n  }\n}\n';
    const v1Index = keyLines(v1);
    assert.equal(lineOf(v1Index, pinnedPath('default', report('tool', 'a"b'))), 4);
    assert.equal(lineOf(v1Index, pinnedPath('default', report('tool', 'c'))), 7);
    assert.equal(lineOf(v1Index, pinnedPath('default', report('tool', 'new'))), 3);
  });

  it('compact text, escaped keys and braces in strings: nesting is followed, not searched', () => {
    const compact =
      '{"servers":{"s":{"tools":{"d":{"description":"}}{\\"tools\\":{"},"t":{}}}},\n"x":{"t":1}}';
    const i = keyLines(compact);
    assert.equal(lineOf(i, ['servers', 's', 'tools', 't']), 1);
    assert.equal(lineOf(i, ['x', 't']), 2);
    assert.equal(
      i.has(JSON.stringify(['servers', 's', 'tools', 'd', 'description'])),
      false,
      'depth bounded',
    );
  });

  it('indexes a very deep lock without recursion, keys below the depth of interest ignored', () => {
    const deep = `{"servers":{"s":{"tools":{"t":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}},"u":{}}}}`;
    const i = keyLines(deep);
    assert.equal(lineOf(i, ['servers', 's', 'tools', 'u']), 1);
    assert.ok(i.size <= 6, `${i.size} keys kept`);
  });
});
