import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';
import { compareManifests, renderMessage, type JsonObject, type Tool } from '../../src/compat/index.ts';

const tool = (annotations?: JsonObject): Tool => ({
  name: 'move_file',
  description: 'Move a file',
  inputSchema: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } },
  ...(annotations ? { annotations } : {}),
});

function verdictOf(
  before: JsonObject | undefined,
  after: JsonObject | undefined,
): { verdict: string; rules: string[] } {
  const r = compareManifests([tool(before)], [tool(after)]);
  return { verdict: r.verdict, rules: r.tools[0]?.findings.map((f) => f.rule) ?? [] };
}

describe('effects: behaviour hints are part of the contract', () => {
  const widenings: [string, JsonObject | undefined, JsonObject | undefined][] = [
    ['effect-read-only-dropped', { readOnlyHint: true }, { readOnlyHint: false }],
    ['effect-read-only-dropped', { readOnlyHint: true }, undefined],
    ['effect-became-destructive', { destructiveHint: false }, { destructiveHint: true }],
    ['effect-became-destructive', { destructiveHint: false }, {}],
    ['effect-no-longer-idempotent', { idempotentHint: true }, { idempotentHint: false }],
    ['effect-opened-world', { openWorldHint: false }, { openWorldHint: true }],
  ];
  for (const [rule, before, after] of widenings) {
    it(`${rule}: ${JSON.stringify(before)} → ${JSON.stringify(after ?? null)} is breaking`, () => {
      const r = verdictOf(before, after);
      assert.equal(r.verdict, 'breaking');
      assert.deepEqual(r.rules, [rule]);
    });
    it(`${rule} reversed is a compatible narrowing`, () => {
      const r = verdictOf(after, before);
      assert.equal(r.verdict, 'compatible');
      assert.ok(r.rules.every((x) => x.startsWith('effect-')) && r.rules.length === 1, r.rules.join());
    });
  }

  it('spelling out a default changes nothing a client may assume (compatible drift)', () => {
    const r = verdictOf(undefined, { destructiveHint: true, openWorldHint: true, readOnlyHint: false });
    assert.equal(r.verdict, 'compatible');
    assert.ok(r.rules.every((x) => x === 'tool-annotations-changed'));
  });

  it('destructive and idempotent hints of a read-only tool do not count', () => {
    const r = verdictOf(
      { readOnlyHint: true, destructiveHint: false },
      { readOnlyHint: true, destructiveHint: true },
    );
    assert.equal(r.verdict, 'compatible');
  });

  it('messages say "absent", never "null", for a hint that is not there', () => {
    const r = compareManifests([tool({ destructiveHint: false })], [tool({})]);
    const f = r.tools[0]?.findings[0];
    assert.ok(f);
    assert.equal(renderMessage(f), 'the tool may now destroy data (destructiveHint false → absent)');
    const title = compareManifests([tool()], [{ ...tool(), title: 'Move' }]).tools[0]?.findings[0];
    assert.ok(title);
    assert.equal(renderMessage(title), 'tool title changed from absent to "Move"');
  });

  it('accept blesses a widened effect only by name and hash', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-effects-'));
    try {
      const v1 = path.join(dir, 'v1.json'),
        v2 = path.join(dir, 'v2.json'),
        lock = path.join(dir, 'lock.json');
      fs.writeFileSync(v1, JSON.stringify({ tools: [tool({ destructiveHint: false })] }));
      fs.writeFileSync(v2, JSON.stringify({ tools: [tool({ destructiveHint: true })] }));
      const gate = async (...argv: string[]): Promise<{ code: number; out: string }> => {
        const io = bufferIo();
        const code = await main([...argv], io);
        return { code, out: io.out.join('') };
      };
      assert.equal((await gate('pin', '--manifest', v1, '--lock', lock)).code, 0);
      const check = await gate('check', '--manifest', v2, '--lock', lock, '--json');
      assert.equal(check.code, 1);
      const report = JSON.parse(check.out) as {
        servers: { items: { newHash: string; findings: { rule: string }[] }[] }[];
      };
      const [item] = report.servers[0]?.items ?? [];
      assert.equal(item?.findings[0]?.rule, 'effect-became-destructive');
      const auto = await gate('accept', '--manifest', v2, '--lock', lock);
      assert.equal(auto.code, 1, 'not accepted automatically');
      assert.match(auto.out, /breaking, not accepted/);
      const hash = item?.newHash as string;
      const byHand = await gate('accept', '--manifest', v2, '--lock', lock, '--tool', `move_file@${hash}`);
      assert.equal(byHand.code, 0, byHand.out);
      assert.equal((await gate('check', '--manifest', v2, '--lock', lock)).code, 0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
