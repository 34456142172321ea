import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionIndex } from '../../src/compat/definitions.ts';
import { clearValidatorCache, compileSchema } from '../../src/compat/validator.ts';
import type { JsonObject } from '../../src/compat/types.ts';

// Definitions are compiled once per content, whichever document they come from. These tests pin
// what "the same content" must mean: a definition is only shared with one that reaches the same
// definitions under the same names with the same text.

const doc = (body: JsonObject, defs: JsonObject): JsonObject => ({ ...body, $defs: defs });

test('a definition is shared only with one that reaches the same definitions, unchanged', () => {
  const a = definitionIndex(doc({ $ref: '#/$defs/X' }, { X: { $ref: '#/$defs/Y' }, Y: { type: 'string' } }));
  const b = definitionIndex(
    doc({ $ref: '#/$defs/X' }, { X: { $ref: '#/$defs/Y' }, Y: { type: 'string' }, Z: { type: 'null' } }),
  );
  const c = definitionIndex(doc({ $ref: '#/$defs/X' }, { X: { $ref: '#/$defs/Y' }, Y: { type: 'number' } }));
  assert.ok(a && b && c);
  assert.equal(a.idOf('X'), b.idOf('X'), 'an unrelated definition beside it changes nothing');
  assert.notEqual(a.idOf('X'), c.idOf('X'), 'same text, but what it reaches changed');
  assert.notEqual(a.idOf('Y'), c.idOf('Y'));
  assert.equal(a.idOf('missing'), undefined);
});

test('validators from documents that share names but not meanings stay apart', () => {
  clearValidatorCache();
  const strings = compileSchema(
    doc({ $ref: '#/$defs/X' }, { X: { $ref: '#/$defs/Y' }, Y: { type: 'string' } }),
  );
  const numbers = compileSchema(
    doc({ $ref: '#/$defs/X' }, { X: { $ref: '#/$defs/Y' }, Y: { type: 'number' } }),
  );
  assert.equal(strings('a'), true);
  assert.equal(strings(1), false);
  assert.equal(numbers(1), true);
  assert.equal(numbers('a'), false);
});

test('recursive, mutually recursive and pointer-into references validate as the whole document would', () => {
  clearValidatorCache();
  const json = compileSchema(
    doc(
      { type: 'array', items: { $ref: '#/$defs/V' } },
      {
        V: {
          anyOf: [{ type: 'array', items: { $ref: '#/$defs/V' } }, { $ref: '#/$defs/O' }, { type: 'string' }],
        },
        O: { type: 'object', additionalProperties: { $ref: '#/$defs/V' } },
      },
    ),
  );
  assert.equal(json([['a', { k: ['b', { j: 'c' }] }]]), true);
  assert.equal(json([['a', { k: [1] }]]), false);
  const into = compileSchema(
    doc(
      { type: 'object', properties: { n: { $ref: '#/$defs/P/properties/name' } } },
      { P: { type: 'object', properties: { name: { type: 'string', maxLength: 3 } } } },
    ),
  );
  assert.equal(into({ n: 'abc' }), true);
  assert.equal(into({ n: 'abcd' }), false);
});

test('a document whose references leave its definitions is compiled whole, and still right', () => {
  clearValidatorCache();
  const schema = doc(
    { type: 'object', properties: { a: { type: 'integer' }, b: { $ref: '#/$defs/B' } } },
    { B: { $ref: '#/properties/a' } },
  );
  assert.equal(definitionIndex(schema), null);
  const fn = compileSchema(schema);
  assert.equal(fn({ a: 1, b: 2 }), true);
  assert.equal(fn({ a: 1, b: 'x' }), false);
});

test('an invalid definition is reported under its name, whichever document reaches it first', () => {
  clearValidatorCache();
  const bad = { X: { type: 'strin' } };
  assert.throws(() => compileSchema(doc({ $ref: '#/$defs/X' }, bad)), /\/\$defs\/X/);
  assert.throws(
    () => compileSchema(doc({ type: 'array', items: { $ref: '#/$defs/X' } }, bad)),
    /\/\$defs\/X/,
  );
});
