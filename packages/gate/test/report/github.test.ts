import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diff } from './pair.ts';

describe('the GitHub annotations report (report/github.ts)', () => {
  it('github: one workflow annotation per changed item, breaking first, then the summary line', async () => {
    const { out } = await diff('github');
    const lines = out.trim().split('\n');
    const summary = lines.pop();
    assert.equal(summary, 'warden gate: 1 breaking, 1 unknown, 1 compatible in 1 server');
    assert.deepEqual(
      lines.map((l) => /^::(error|warning|notice) title=[^:]*::/.exec(l)?.[1]),
      ['error', 'warning', 'notice'],
      out,
    );
    assert.match(lines[0] ?? '', /^::error title=warden gate%3A search breaking \(type-narrowed\)::search: /);
  });
});
