import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';
import { diff } from './pair.ts';

const LEVEL = /^::(error|warning|notice) /;

/** `warden-gate diff OLD NEW --format github` of two tools/list results, in-process. */
async function diffOf(before: unknown, after: unknown, ...more: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-github-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(before));
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify(after));
    const io = bufferIo();
    const code = await main(
      ['diff', path.join(dir, 'a.json'), path.join(dir, 'b.json'), '--format', 'github', ...more],
      io,
    );
    return { code, out: io.out.join('') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

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
    assert.match(out, /^breaking: 111 tools removed: tool_010, tool_011, .* and 91 more$/m);
    assert.match(out, /^warden gate: 120 breaking, 1 identical in 1 server$/m);
    assert.ok(out.split('\n').length < 20, `${out.split('\n').length} lines`);
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
    assert.deepEqual(quiet, { code: 0, out: '' });
    const identical = await diffOf(before, before);
    assert.deepEqual(identical, { code: 0, out: '' });
    const listed = await diffOf(before, after, '--verbose');
    assert.ok(levels(listed.out).every((l) => l === 'notice'));
    assert.match(listed.out, /^warden gate: 2 compatible in 1 server$/m);
  });
});
