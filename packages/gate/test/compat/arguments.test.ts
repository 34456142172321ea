import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareManifests, levelOf, type Json } from '../../src/compat/index.ts';

const tool = (inputSchema: Json): Json => ({ name: 'read_file', inputSchema });
const path = { type: 'string' };

function judge(before: Json, after: Json) {
  const report = compareManifests({ tools: [tool(before)] }, { tools: [tool(after)] }).tools[0];
  assert.ok(report);
  return report;
}

describe('arguments an agent forms its calls from (compat/arguments.ts)', () => {
  it('a declared argument gone from an open object is argument-removed, compatible, at warning', () => {
    const report = judge(
      { type: 'object', properties: { path, encoding: path } },
      { type: 'object', properties: { path } },
    );
    assert.equal(report.verdict, 'compatible');
    assert.deepEqual(
      report.findings.map((f) => [f.rule, f.verdict, f.pointer, levelOf(f)]),
      [['argument-removed', 'compatible', '/inputSchema/properties', 'warning']],
    );
    assert.equal(report.findings[0]?.args.property, 'encoding');
  });

  it('a nested property gone from an open object stays property-removed-from-open-object', () => {
    const report = judge(
      { type: 'object', properties: { opts: { type: 'object', properties: { a: path } } } },
      { type: 'object', properties: { opts: { type: 'object' } } },
    );
    assert.deepEqual(
      report.findings.map((f) => f.rule),
      ['property-removed-from-open-object'],
    );
    assert.equal(levelOf(report.findings[0] as never), 'info');
  });

  it('every declared argument gone (a zod 4 empty schema) is one unknown finding', () => {
    for (const after of [{ type: 'object' }, { type: 'object', properties: {} }] as Json[]) {
      const report = judge({ type: 'object', properties: { path, tail: { type: 'number' } } }, after);
      assert.equal(report.verdict, 'unknown');
      assert.deepEqual(
        report.findings.map((f) => [f.rule, f.verdict, levelOf(f)]),
        [['all-arguments-removed', 'unknown', 'error']],
      );
      assert.deepEqual(report.findings[0]?.args.properties, ['path', 'tail']);
    }
  });

  it('arguments renamed (others declared in their place) are not all gone', () => {
    const report = judge(
      { type: 'object', properties: { path } },
      { type: 'object', properties: { file: path } },
    );
    assert.ok(report.findings.every((f) => f.rule !== 'all-arguments-removed'));
    assert.ok(report.findings.some((f) => f.rule === 'argument-removed'));
  });

  it('a tool that declared no argument loses none', () => {
    const report = judge({ type: 'object' }, { type: 'object', properties: {} });
    assert.ok(report.findings.every((f) => !/argument/.test(f.rule)));
  });
});
