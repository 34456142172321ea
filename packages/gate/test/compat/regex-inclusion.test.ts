import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { regexInclusion } from '../../src/compat/engine/regex-inclusion.ts';

/** [sub, sup, included?]: undefined where the shape is not read and nothing is decided. */
const CASES: [string, string, boolean | undefined][] = [
  ['^[0-9]{3}$', '^\\S+$', true],
  ['^[A-Z][a-z]*$', '^\\S+$', true],
  ['^[a-z0-9_-]+$', '^\\S+$', true],
  ['^[a-z]+$', '^[a-z]*$', true],
  ['^ab', '^a', true],
  ['^ab', 'b', true],
  ['a.c', 'a[^\\n\\r\\u2028\\u2029]c', undefined], // \u is no escape the reader takes
  ['a.c', 'a[^\\n\\r]c', true],
  ['a[^\\n\\r]c', 'a.c', false], // `.` also stops at U+2028
  ['^x{2,3}$', '^x+$', true],
  ['^$', '^a*$', true],
  ['[]', 'a', true],
  ['^a', '^ab', false],
  ['^a', '^\\S+$', false],
  ['b', '^[a-z0-9_-]+$', false],
  ['^x+$', '^x{2,3}$', false],
  ['^[^a]$', '^.$', false],
  ['^\\d+$', '^[0-9]+$', true],
  ['^\\w+$', '^[A-Za-z0-9_]+$', true],
  ['^(ab)+$', '^(ab|c)+$', undefined],
  ['^a|b$', '^a', undefined],
  ['^a\\b', '^a', undefined],
];

describe('regex inclusion for simple shapes', () => {
  for (const [sub, sup, expected] of CASES) {
    it(`${sub} in ${sup}: ${String(expected)}`, () => {
      const r = regexInclusion(sub, sup);
      assert.equal(r?.included, expected);
      // A witness is held to the regexes themselves, as the validator runs them.
      if (r && !r.included) {
        assert.equal(new RegExp(sub, 'u').test(r.witness), true);
        assert.equal(new RegExp(sup, 'u').test(r.witness), false);
      }
    });
  }

  it('gives up on a regex that expands past its bound, rather than walk it', () => {
    assert.equal(regexInclusion('^a{1,500}$', '^a+$'), undefined);
  });
});
