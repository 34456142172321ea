import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { diff, diffOf as diffPair } from './pair.ts';

const LEVEL = /^::(error|warning|notice) /;

/** `warden-gate diff OLD NEW --format github` of two tools/list results, in-process. */
const diffOf = (before: unknown, after: unknown, ...more: string[]) =>
  diffPair(before, after, '--format', 'github', ...more);

const levels = (out: string) =>
  out
    .split('\n')
    .map((l) => LEVEL.exec(l)?.[1])
    .filter(Boolean);

describe('the GitHub annotations report (report/github.ts)', () => {
  it('github: one annotation per change a person must read, breaking first, then the summary line', async () => {
    const { out } = await diff('github');
    const lines = out.trim().split('\n');
    const summary = lines.pop();
    assert.equal(summary, 'warden gate: 1 breaking, 1 unknown, 1 compatible in 1 server');
    assert.deepEqual(levels(out), ['error', 'warning'], 'the compatible change is not annotated');
    assert.match(lines[0] ?? '', /^::error title=warden gate%3A search breaking \(type-narrowed\)::search: /);
    assert.deepEqual(levels((await diff('github', '--verbose')).out), ['error', 'warning', 'notice']);
  });

  it('120 removed tools: at most 10 error annotations, and all 120 counted', async () => {
    const tools = Array.from({ length: 121 }, (_, i) => ({
      name: `tool_${String(i).padStart(3, '0')}`,
      inputSchema: { type: 'object' },
    }));
    const { code, out } = await diffOf({ tools }, { tools: tools.slice(0, 1) });
    assert.equal(code, 1);
    const errors = out.split('\n').filter((l) => l.startsWith('::error '));
    assert.equal(errors.length, 10);
    assert.match(errors[9] ?? '', /::111 more breaking changes, not annotated one by one: 111 tools removed/);
    assert.equal(
      errors.slice(0, 9).filter((l) => /title=warden gate%3A tool_\d+ breaking/.test(l)).length,
      9,
    );
    // 9 annotated one by one + 111 counted: all 120.
    assert.match(out, /^breaking: 111 tools removed: tool_010, tool_011, .* and 91 more$/m);
    assert.match(out, /^warden gate: 120 breaking, 1 identical in 1 server$/m);
    assert.ok(out.split('\n').length < 20, `${out.split('\n').length} lines`);
  });

  it('rejected recorded calls count against the ten errors: past the cap they share one annotation', async () => {
    const kept = (type: string) => ({
      name: 'tool_000',
      inputSchema: { type: 'object', properties: { n: { type } } },
    });
    const tools = Array.from({ length: 30 }, (_, i) => ({
      name: `tool_${i + 1}`,
      inputSchema: { type: 'object' },
    }));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-calls-'));
    try {
      const calls = path.join(dir, 'calls.jsonl');
      fs.writeFileSync(calls, '{"tool":"tool_000","arguments":{"n":1.5}}\n'.repeat(5));
      const { code, out } = await diffOf(
        { tools: [kept('number'), ...tools] },
        { tools: [kept('integer')] },
        '--calls',
        calls,
      );
      assert.equal(code, 1);
      const errors = out.split('\n').filter((l) => l.startsWith('::error '));
      assert.equal(errors.length, 10);
      assert.equal(
        errors.filter((l) => l.includes('title=warden gate%3A 5 recorded calls now rejected')).length,
        1,
      );
      assert.match(out, /::23 more breaking changes, not annotated one by one: 23 tools removed/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a compatible change: no annotation above notice, at most one notice, and by default nothing at all', async () => {
    const before = { tools: [{ name: 'a', inputSchema: { type: 'object' } }] };
    const after = {
      tools: [
        { name: 'a', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
        { name: 'b', inputSchema: { type: 'object' } },
      ],
    };
    const quiet = await diffOf(before, after);
    assert.deepEqual(
      levels(quiet.out).filter((l) => l !== 'notice'),
      [],
      'no annotation above notice',
    );
    assert.ok(levels(quiet.out).length <= 1, 'at most one notice');
    assert.deepEqual(quiet, { code: 0, out: '' });
    const identical = await diffOf(before, before);
    assert.deepEqual(identical, { code: 0, out: '' });
    const listed = await diffOf(before, after, '--verbose');
    assert.ok(levels(listed.out).every((l) => l === 'notice'));
    assert.match(listed.out, /^warden gate: 2 compatible in 1 server$/m);
  });
});
