// The handle rule, as the tools' schemas publish it and admin/ and the console check it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANDLE_PATTERN, isHandle } from '../../src/core/handles.ts';

void describe('a handle: 2 to 32 of a-z, 0-9, "_" and "-", starting with a letter or digit', () => {
  const rows: [string, boolean][] = [
    ['al', true],
    ['a1', true],
    ['9lives', true],
    ['ada_lovelace', true],
    ['ada-lovelace', true],
    ['a'.repeat(32), true],
    ['a', false],
    ['a'.repeat(33), false],
    ['', false],
    ['_ada', false],
    ['-ada', false],
    ['Ada', false],
    ['ada lovelace', false],
    ['ada.lovelace', false],
    ['adà', false],
    ['ada\n', false],
  ];
  for (const [handle, valid] of rows) {
    void it(`${JSON.stringify(handle)} is ${valid ? '' : 'not '}a handle`, () => {
      assert.equal(isHandle(handle), valid);
      // The published pattern says the same as the check.
      assert.equal(new RegExp(HANDLE_PATTERN, 'u').test(handle), valid);
    });
  }
});
