// Argument checking as a table: Ajv's errors said as short sentences, and the lone-surrogate
// scan that keeps malformed UTF-16 out of the store.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema, describeErrors, findLoneSurrogate } from '../../src/core/validation.ts';

const validate = compileSchema({
  type: 'object',
  properties: {
    to: { type: 'string', minLength: 2 },
    count: { type: 'integer', minimum: 1 },
    site: { type: 'string', format: 'uri' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['to'],
  additionalProperties: false,
});

void describe('describeErrors: what was wrong, where, in one line', () => {
  const rows: { case: string; args: unknown; says: string }[] = [
    { case: 'a missing property', args: {}, says: '(arguments) is missing "to"' },
    {
      case: 'an unknown property',
      args: { to: 'al', cc: 'bo' },
      says: '(arguments) has an unknown property "cc"',
    },
    { case: 'a wrong type, by its path', args: { to: 7 }, says: '/to must be string' },
    { case: 'a nested path', args: { to: 'al', tags: ['a', 1] }, says: '/tags/1 must be string' },
    {
      case: 'a format (ajv-formats is loaded)',
      args: { to: 'al', site: 'not a uri' },
      says: '/site must match format "uri"',
    },
    {
      case: 'every error, joined (allErrors)',
      args: { count: 0, x: 1 },
      says: '(arguments) is missing "to"; (arguments) has an unknown property "x"; /count must be >= 1',
    },
    { case: 'not an object at all', args: 'hello', says: '(arguments) must be object' },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      assert.equal(validate(row.args), false);
      assert.equal(describeErrors(validate.errors), row.says);
    });
  }
  void it('valid arguments pass', () => assert.equal(validate({ to: 'al', count: 2, tags: [] }), true));
  void it('no errors at all reads "invalid"', () => {
    assert.equal(describeErrors(null), 'invalid');
    assert.equal(describeErrors([]), 'invalid');
  });
});

void describe('compileSchema is strict: a schema with an unknown keyword is a start-up error', () => {
  void it('refuses a typo in a keyword', () =>
    assert.throws(() => compileSchema({ type: 'object', propertys: {} })));
});

void describe('findLoneSurrogate: the first unpaired UTF-16 half, with where it is', () => {
  const rows: { case: string; value: unknown; found: ReturnType<typeof findLoneSurrogate> }[] = [
    { case: 'plain text', value: 'hello', found: null },
    { case: 'a valid pair (an emoji) is one code point', value: 'hi 😀', found: null },
    { case: 'a lone high half', value: 'ab\uD83D', found: { path: 'arguments', index: 2, codeUnit: 'D83D' } },
    { case: 'a lone low half', value: '\uDE00x', found: { path: 'arguments', index: 0, codeUnit: 'DE00' } },
    {
      case: 'in a property value',
      value: { to: 'x\uD800' },
      found: { path: 'arguments.to', index: 1, codeUnit: 'D800' },
    },
    {
      case: 'in an array item',
      value: { tags: ['ok', '\uDFFF'] },
      found: { path: 'arguments.tags[1]', index: 0, codeUnit: 'DFFF' },
    },
    {
      case: 'in a property name',
      value: { ['k\uD801']: 1 },
      found: { path: 'a property name in arguments', index: 1, codeUnit: 'D801' },
    },
    { case: 'numbers, booleans and null hold no text', value: { a: 1, b: true, c: null }, found: null },
    {
      case: 'the first one found is reported',
      value: ['\uD800', '\uDC00'],
      found: { path: 'arguments[0]', index: 0, codeUnit: 'D800' },
    },
  ];
  for (const row of rows) {
    void it(row.case, () => assert.deepEqual(findLoneSurrogate(row.value), row.found));
  }
  void it('stops descending past 64 levels rather than exhaust the stack', () => {
    let deep: unknown = '\uD800';
    for (let i = 0; i < 100; i++) deep = [deep];
    assert.equal(findLoneSurrogate(deep), null);
  });
});
