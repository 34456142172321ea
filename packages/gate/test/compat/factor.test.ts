import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { factorBranches } from '../../src/compat/factor.ts';
import { clearValidatorCache, compileSchema } from '../../src/compat/validator.ts';
import type { Json, JsonObject, Schema } from '../../src/compat/index.ts';

const ajv = new Ajv2020({ strict: false, logger: false, code: { optimize: false } });

/** n branches told apart by `kind`, otherwise alike; `extra` adds to branch i. */
const branches = (n: number, extra: (i: number) => JsonObject = () => ({})): JsonObject[] =>
  Array.from({ length: n }, (_, i) => ({
    type: 'object',
    properties: { kind: { type: 'string', const: `k${i}` }, size: { type: 'integer' } },
    required: ['kind'],
    ...extra(i),
  }));

/** Values that reach every way a branch can match or fail: each tag, no tag, wrong types, extra keys. */
const values: Json[] = [
  null,
  5,
  'k1',
  [],
  {},
  { kind: 'nope' },
  { kind: 'k0' },
  { kind: 'k1', size: 1 },
  { kind: 'k1', size: 'big' },
  { kind: 'k2', other: true },
  { kind: 'k19', size: 3 },
  { kind: 'k20' },
  { kind: 5 },
  { size: 3 },
];

function sameVerdicts(original: Schema, rewritten: Schema): void {
  const a = ajv.compile(original as object),
    b = ajv.compile(rewritten as object);
  for (const v of values) assert.equal(b(v), a(v), `value ${JSON.stringify(v)}`);
}

const anyOf = (s: Schema): Json[] => (s as { anyOf: Json[] }).anyOf;

describe('a wide anyOf whose branches differ only at one property is handed to Ajv as one branch per shape', () => {
  it('merges the tags into one enum, with the same validity value for value', () => {
    const schema = { anyOf: branches(20) };
    const factored = factorBranches(schema);
    assert.equal(anyOf(factored).length, 1);
    const kind = (((anyOf(factored)[0] as JsonObject).properties as JsonObject).kind ?? {}) as JsonObject;
    assert.deepEqual(kind.type, 'string');
    assert.equal((kind.enum as Json[]).length, 20);
    sameVerdicts(schema, factored);
  });

  it('merges only branches of the same shape, enums with consts, and keeps the others as written', () => {
    const schema = {
      anyOf: [
        ...branches(18, (i): JsonObject => (i % 3 === 0 ? { additionalProperties: false } : {})),
        { type: 'object', properties: { kind: { enum: ['k19', 'k20'] }, size: { type: 'integer' } } },
        { type: 'string' },
      ],
    };
    const factored = factorBranches(schema);
    // Two shapes of tagged branch (closed and open), the enum branch of a third, and the string.
    assert.equal(anyOf(factored).length, 4);
    assert.deepEqual(anyOf(factored)[3], { type: 'string' });
    sameVerdicts(schema, factored);
  });

  it('wherever the anyOf sits, and the validator answers as Ajv does on the schema as written', () => {
    const schema = { type: 'object', properties: { shape: { anyOf: branches(40) } }, required: ['shape'] };
    const factored = factorBranches(schema) as JsonObject;
    assert.equal(anyOf((factored.properties as JsonObject).shape as Schema).length, 1);
    clearValidatorCache();
    const gate = compileSchema(schema),
      plain = ajv.compile(schema);
    for (const v of values) assert.equal(gate({ shape: v }), plain({ shape: v }), JSON.stringify(v));
  });

  it('never where the shape of the code or a position could be seen', () => {
    const wide = branches(20);
    const untouched: JsonObject[] = [
      { anyOf: branches(15) },
      { anyOf: wide, unevaluatedProperties: false },
      { anyOf: wide, properties: { list: { contains: { type: 'string' } } } },
      { anyOf: wide, properties: { again: { $ref: '#/anyOf/3' } } },
      { anyOf: wide, $id: 'https://example.com/s' },
      {
        $defs: { K: { type: 'string' } },
        anyOf: branches(20, (i): JsonObject => ({
          properties: { kind: { $ref: '#/$defs/K', const: `k${i}` } },
        })),
      },
      { oneOf: wide },
      { $defs: { S: { anyOf: wide } }, $ref: '#/$defs/S' },
    ];
    for (const schema of untouched)
      assert.equal(factorBranches(schema), schema, JSON.stringify(schema).slice(0, 80));
  });

  it('follows references to the root and to definitions, which it leaves as they are', () => {
    const schema = {
      $defs: { Size: { type: 'integer' } },
      anyOf: branches(20, (): JsonObject => ({
        properties: { kind: {}, size: { $ref: '#/$defs/Size' } },
      })).map((b, i) => ({ ...b, properties: { kind: { const: `k${i}` }, size: { $ref: '#/$defs/Size' } } })),
    };
    const factored = factorBranches(schema) as JsonObject;
    assert.equal(anyOf(factored).length, 1);
    assert.equal(factored.$defs, schema.$defs);
    sameVerdicts(schema, factored);
  });
});
