import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FORMATS } from '../../src/report/formats.ts';
import { diff } from './pair.ts';

describe('the formats a report is rendered in', () => {
  it('an unknown format is a usage error (exit 3)', async () => {
    assert.equal((await diff('yaml')).code, 3);
  });

  it('every format renders the same result and ends with its verdict in the exit code', async () => {
    for (const format of FORMATS) {
      const { code, out } = await diff(format);
      assert.equal(code, 1, format);
      assert.ok(out.length > 0, format);
    }
  });
});
