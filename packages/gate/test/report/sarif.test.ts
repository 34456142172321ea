import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sarifValidator } from '../compat/helpers.ts';
import { diff } from './pair.ts';

describe('the SARIF report (report/sarif.ts)', () => {
  it('sarif: valid against the published SARIF 2.1.0 schema, one result per finding, breaking first', async () => {
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
      ['error', 'warning', 'note'],
      'breaking first, then unknown, then compatible',
    );
    // Two tools/list files: no lockfile to point into, and the run says so.
    assert.ok(results.every((r) => !('physicalLocation' in (r.locations[0] ?? {}))));
    assert.match(
      doc.runs[0]?.invocations?.[0]?.toolExecutionNotifications[0]?.message.text ?? '',
      /no physical location: neither OLD nor NEW is a lockfile/,
    );
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: {} }] }), false, 'the schema does reject');
  });
});
