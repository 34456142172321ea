import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareSnapshots, type JsonObject, type ServerSnapshot, type Tool } from '../../src/compat/index.ts';
import { findRenames } from '../../src/lock/renames.ts';

const schema = (props: string[]): JsonObject => ({
  type: 'object',
  properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
  required: props.slice(0, 1),
});
const tool = (name: string, props: string[], extra: Partial<Tool> = {}): Tool => ({
  name,
  description: `${name} does it`,
  inputSchema: schema(props),
  ...extra,
});
const skill = (dir: string, description: string) => ({
  uri: `skill://${dir}/SKILL.md`,
  frontmatter: { name: dir, description },
  resources: 'dynamic' as const,
});

/** Renames found between two snapshots per server, as `kind from → to`. */
function renames(before: Record<string, ServerSnapshot>, after: Record<string, ServerSnapshot>): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const servers = names
    .filter((n) => before[n] && after[n])
    .map((n) => ({
      name: n,
      comparison: compareSnapshots(before[n] as ServerSnapshot, after[n] as ServerSnapshot),
    }));
  return findRenames(new Map(Object.entries(before)), new Map(Object.entries(after)), servers).map(
    (r) => `${r.server}: ${r.kind} ${r.from} → ${r.to}`,
  );
}

const one = (b: ServerSnapshot, a: ServerSnapshot): string[] => renames({ s: b }, { s: a });

describe('rename hints', () => {
  for (const [name, before, after, expected] of [
    [
      'a tool under a new name, its description reworded',
      { tools: [tool('read_file', ['path']), tool('list', ['dir'])] },
      {
        tools: [tool('read_text_file', ['path'], { description: 'Read a text file' }), tool('list', ['dir'])],
      },
      ['s: tool read_file → read_text_file'],
    ],
    [
      'a new name and a new argument: two changes, no hint',
      { tools: [tool('read_file', ['path'])] },
      { tools: [tool('read_text_file', ['path', 'encoding'])] },
      [],
    ],
    [
      'the same input but another output schema: no hint',
      { tools: [tool('a', ['q'], { outputSchema: { type: 'object' } })] },
      { tools: [tool('b', ['q'], { outputSchema: { type: 'object', required: ['x'] } })] },
      [],
    ],
    [
      'two removed tools alike, one added: ambiguous, no hint',
      { tools: [tool('a', ['q']), tool('b', ['q'])] },
      { tools: [tool('c', ['q'])] },
      [],
    ],
    [
      'one removed, two added alike: ambiguous, no hint',
      { tools: [tool('a', ['q'])] },
      { tools: [tool('b', ['q']), tool('c', ['q'])] },
      [],
    ],
    [
      'a prompt renamed, title and all',
      { tools: [], prompts: [{ name: 'sum', title: 'Sum', arguments: [{ name: 'text' }] }] },
      { tools: [], prompts: [{ name: 'summarize', title: 'Summarize', arguments: [{ name: 'text' }] }] },
      ['s: prompt sum → summarize'],
    ],
    [
      'a resource moved to a new URI',
      { tools: [], resources: [{ uri: 'file:///a.md', name: 'a', mimeType: 'text/markdown' }] },
      { tools: [], resources: [{ uri: 'file:///docs/a.md', name: 'a', mimeType: 'text/markdown' }] },
      ['s: resource file:///a.md → file:///docs/a.md'],
    ],
    [
      'a skill moved, its description kept',
      { tools: [], skills: [skill('git', 'Git habits')] },
      { tools: [], skills: [skill('git-flow', 'Git habits')] },
      ['s: skill skill://git/SKILL.md → skill://git-flow/SKILL.md'],
    ],
    [
      'a removed tool and an added prompt are different kinds',
      { tools: [tool('greet', [])], prompts: [] },
      { tools: [], prompts: [{ name: 'greet2' }] },
      [],
    ],
  ] as const) {
    it(name, () => {
      assert.deepEqual(
        one(before as unknown as ServerSnapshot, after as unknown as ServerSnapshot),
        expected,
      );
    });
  }

  it('never across servers', () => {
    const a = { tools: [tool('read_file', ['path'])] };
    const b = { tools: [tool('read_text_file', ['path'])] };
    assert.deepEqual(renames({ x: a, y: { tools: [] } }, { x: { tools: [] }, y: b }), []);
    assert.deepEqual(renames({ x: a, y: a }, { x: b, y: a }), ['x: tool read_file → read_text_file']);
  });
});
