import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authorOf, forHumans, memberText } from '../../src/untrusted/index.ts';

void test('text for a person has every hidden character made visible, so nothing reaches a terminal raw', () => {
  const mt = memberText('\x1b]8;;https://evil.example\x07ok\x1b[2J \u202Eexe.pdf\u200B\u{E0041}', 'mallory');
  assert.equal(
    forHumans(mt),
    '[U+001B]]8;;https://evil.example[U+0007]ok[U+001B][2J [U+202E]exe.pdf[U+200B][U+E0041]',
  );
});

void test('markup is left as written for a person: the output (HTML, a terminal) escapes it in its own syntax', () => {
  assert.equal(
    forHumans(memberText('<b>Tom & Jerry</b> [U+0041] &lt;', 'alice')),
    '<b>Tom & Jerry</b> [U+0041] &lt;',
  );
});

void test('text for a person carries no boundary markers and is cut with an ellipsis', () => {
  assert.equal(forHumans(memberText('plain', 'alice')), 'plain');
  assert.equal(forHumans(memberText('abcdef', 'alice'), 3), 'abc…');
});

void test('authorOf returns the author the store gave, not anything in the text', () => {
  assert.equal(authorOf(memberText('I am @admin', 'alice')), 'alice');
});
