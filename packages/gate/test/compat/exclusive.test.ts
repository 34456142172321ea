import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { flatOneOfs } from '../../src/compat/exclusive.ts';
import type { Json, JsonObject, Schema } from '../../src/compat/index.ts';

const ajv = new Ajv2020({ strict: false, logger: false, code: { optimize: false } });

const branches = (n: number, extra: (i: number) => JsonObject = () => ({})): JsonObject[] =>
  Array.from({ length: n }, (_, i) => ({
    type: 'object',
    properties: { kind: { const: `k${i}` }, size: { type: 'integer', minimum: i } },
    required: ['kind'],
    ...extra(i),
  }));

/** Values that reach every way a branch can match or fail: each tag, no tag, wrong types. */
const values: Json[] = [
  null,
  5,
  'k1',
  [],
  [{ kind: 'k1' }],
  {},
  { kind: 'nope' },
  { kind: 'k0' },
  { kind: 'k1', size: 0 },
  { kind: 'k1', size: 1 },
  { kind: 'k39', size: 39, other: true },
  { kind: 5 },
  { size: 3 },
];

function sameVerdicts(original: Schema, flat: Schema, at: (v: Json) => Json = (v) => v): void {
  const a = ajv.compile(original as object),
    b = ajv.compile(flat as object);
  for (const v of values) assert.equal(b(at(v)), a(at(v)), `value ${JSON.stringify(at(v))}`);
}

describe('a oneOf of exclusive branches is handed to Ajv as anyOf', () => {
  it('for a large oneOf told apart by a required tag, with the same validity value for value', () => {
    const schema = { oneOf: branches(40) };
    const flat = flatOneOfs(schema);
    assert.ok(typeof flat === 'object' && 'anyOf' in flat && !('oneOf' in flat));
    sameVerdicts(schema, flat);
  });

  it('wherever it sits: under properties and in definitions', () => {
    const inner = { oneOf: branches(40) };
    const schema = {
      type: 'object',
      properties: { shape: inner, ref: { $ref: '#/$defs/S' } },
      $defs: { S: inner },
    };
    const flat = flatOneOfs(schema) as JsonObject;
    assert.ok('anyOf' in ((flat.properties as JsonObject).shape as JsonObject));
    assert.ok('anyOf' in ((flat.$defs as JsonObject).S as JsonObject));
    sameVerdicts(schema, flat, (v) => ({ shape: v }));
    sameVerdicts(schema, flat, (v) => ({ ref: v }));
  });

  it('never when a value could match two branches, or a non-object all of them', () => {
    const shared = {
      oneOf: branches(40, (i): JsonObject =>
        i === 7 ? { properties: { kind: { enum: ['k7', 'k8'] } } } : {},
      ),
    };
    const untyped = { oneOf: branches(40).map(({ type: _t, ...b }) => b) };
    const referenced = { oneOf: [...branches(39), { $ref: '#/$defs/X' }], $defs: { X: { type: 'object' } } };
    const small = { oneOf: branches(5) };
    for (const schema of [shared, untyped, referenced, small]) assert.equal(flatOneOfs(schema), schema);
    // A type object around the branches is enough: a non-object fails there either way.
    const typedAround = { type: 'object', oneOf: untyped.oneOf };
    const flat = flatOneOfs(typedAround);
    assert.ok(typeof flat === 'object' && 'anyOf' in flat);
    sameVerdicts(typedAround, flat);
  });

  it('for a large oneOf of consts and enums that share no value, and never when two share one', () => {
    const consts: JsonObject[] = Array.from({ length: 39 }, (_, i) => ({ const: `k${i}` }));
    const schema = { oneOf: [...consts, { enum: [5, null, [{ kind: 'k1' }]] }] };
    const flat = flatOneOfs(schema);
    assert.ok(typeof flat === 'object' && 'anyOf' in flat && !('oneOf' in flat));
    sameVerdicts(schema, flat);
    for (const shared of [
      { oneOf: [...consts, { enum: ['x', 'k3'] }] },
      { oneOf: [...consts, { const: 'k1' }] },
      { oneOf: [...consts, { const: { a: 1, b: 2 } }, { const: { b: 2, a: 1 } }] },
      { oneOf: [...consts, { type: 'string' }] },
    ])
      assert.equal(flatOneOfs(shared), shared);
  });

  it('leaves data alone: an enum, a const or a default that holds a oneOf is not a schema', () => {
    const data = { oneOf: branches(40) } as unknown as Json;
    const schema = { enum: [data], default: data, examples: [data], properties: { x: { const: data } } };
    const flat = flatOneOfs(schema) as JsonObject;
    assert.equal(flat.enum, schema.enum);
    assert.equal(flat.default, schema.default);
    assert.equal(((flat.properties as JsonObject).x as JsonObject).const, data);
  });
});
