import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toPositional } from '../../src/store/postgres/placeholders.ts';

void describe('toPositional', () => {
  const cases: [string, string, string][] = [
    [
      'numbers placeholders left to right',
      'SELECT * FROM t WHERE a = ? AND b IN (?, ?)',
      'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
    ],
    ['leaves statements without placeholders alone', 'SELECT 1', 'SELECT 1'],
    [
      'skips string literals',
      "SELECT '?', ? FROM t WHERE x = 'a?b'",
      "SELECT '?', $1 FROM t WHERE x = 'a?b'",
    ],
    ['skips doubled quotes inside a literal', "SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"],
    [
      'skips backslash escapes only in E strings',
      "SELECT E'\\'?', ?, 'a\\', ?",
      "SELECT E'\\'?', $1, 'a\\', $2",
    ],
    ['skips quoted identifiers', 'SELECT "odd?name", ? FROM t', 'SELECT "odd?name", $1 FROM t'],
    ['skips line comments', 'SELECT ? -- why?\n, ?', 'SELECT $1 -- why?\n, $2'],
    ['skips nested block comments', 'SELECT /* a /* ? */ ? */ ?', 'SELECT /* a /* ? */ ? */ $1'],
    [
      'skips dollar-quoted bodies',
      'SELECT $$?$$, $tag$ ? $$ ? $tag$, ?',
      'SELECT $$?$$, $tag$ ? $$ ? $tag$, $1',
    ],
    ['does not take an identifier with $ for a dollar quote', 'SELECT a$b$, ?', 'SELECT a$b$, $1'],
    ['copies an unterminated literal as is', "SELECT ?, 'open ?", "SELECT $1, 'open ?"],
  ];
  for (const [name, input, expected] of cases) {
    void it(name, () => assert.equal(toPositional(input), expected));
  }
});
