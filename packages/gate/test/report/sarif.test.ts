import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sarifValidator } from '../compat/helpers.ts';
import { diff, diffOf } from './pair.ts';

describe('the SARIF report (report/sarif.ts)', () => {
  it('sarif: valid against the published SARIF 2.1.0 schema, one result per breaking or unknown finding, breaking first', async () => {
    const { code, out } = await diff('sarif');
    assert.equal(code, 1);
    const doc = JSON.parse(out) as {
      runs: {
        results: { ruleId: string; level: string; locations: Record<string, unknown>[] }[];
        invocations?: { toolExecutionNotifications: { message: { text: string } }[] }[];
      }[];
    };
    const validate = sarifValidator();
    assert.equal(validate(doc), true, JSON.stringify(validate.errors?.slice(0, 3)));
    const results = doc.runs[0]?.results ?? [];
    assert.ok(results.some((r) => r.ruleId === 'type-narrowed' && r.level === 'error'));
    assert.ok(results.some((r) => r.ruleId === 'unknown-keyword-changed' && r.level === 'warning'));
    assert.deepEqual(
      [...new Set(results.map((r) => r.level))],
      ['error', 'warning'],
      'breaking first, then unknown; no compatible finding by default',
    );
    // Two tools/list files: no lockfile to point into, and the run says so.
    assert.ok(results.every((r) => !('physicalLocation' in (r.locations[0] ?? {}))));
    assert.match(
      doc.runs[0]?.invocations?.[0]?.toolExecutionNotifications[0]?.message.text ?? '',
      /no physical location: neither OLD nor NEW is a lockfile/,
    );
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: {} }] }), false, 'the schema does reject');
  });

  it('silent on compatible: no note unless --verbose, and the run counts what it left out', async () => {
    type Doc = { runs: { results: { level: string }[]; properties: Record<string, unknown> }[] };
    const validate = sarifValidator();
    const quiet = JSON.parse((await diff('sarif')).out) as Doc;
    assert.equal(quiet.runs[0]?.properties.compatibleFindingsNotListed, 1);
    const verbose = JSON.parse((await diff('sarif', '--verbose')).out) as Doc;
    assert.equal(validate(verbose), true, JSON.stringify(validate.errors?.slice(0, 3)));
    assert.deepEqual(
      [...new Set(verbose.runs[0]?.results.map((r) => r.level))],
      ['error', 'warning', 'note'],
      'breaking first, then unknown, then compatible',
    );
    assert.equal(verbose.runs[0]?.properties.compatibleFindingsNotListed, undefined);
    // A compatible change alone: a valid document with no result at all.
    const before = { tools: [{ name: 'a', inputSchema: { type: 'object' } }] };
    const after = { tools: [...before.tools, { name: 'b', inputSchema: { type: 'object' } }] };
    const { code, out } = await diffOf(before, after, '--format', 'sarif');
    assert.equal(code, 0);
    const doc = JSON.parse(out) as Doc;
    assert.equal(validate(doc), true, JSON.stringify(validate.errors?.slice(0, 3)));
    assert.deepEqual(doc.runs[0]?.results, []);
    assert.equal(doc.runs[0]?.properties.summaryLine, '1 compatible, 1 identical in 1 server');
  });
});
