import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ajv } from 'ajv';
import { oracleAjv } from '../../fuzz/oracle.ts';
import {
  compiledKeywords,
  judgeDiscriminators,
  readDiscriminator,
  type DiscriminatorReading,
} from '../../src/compat/engine/discriminator.ts';
import type { Dialect } from '../../src/compat/keywords.ts';
import { resolveRef } from '../../src/compat/refs.ts';
import type { JsonObject } from '../../src/compat/types.ts';

// The oracle: the fuzzer's plain Ajv (strict off, ajv-formats and x-mcp-header given, as the
// gate's own validator), with the discriminator option on as a client that turns it on.
function ajvWith(dialect: Dialect, discriminator: boolean): Ajv {
  return oracleAjv(dialect, { discriminator });
}

const tagged = (t: string, extra: JsonObject = {}): JsonObject => ({
  type: 'object',
  required: ['kind'],
  properties: { kind: { const: t }, v: { type: 'string' } },
  ...extra,
});
const AB = [tagged('a'), tagged('b')];
const D = { propertyName: 'kind' };
const defs = { $defs: { a: tagged('a'), b: tagged('b'), toA: { $ref: '#/$defs/a' } } };

const CASES: {
  name: string;
  schema: JsonObject;
  dialect?: Dialect;
  problem?: RegExp;
  everyValue?: boolean;
}[] = [
  { name: 'tagged branches', schema: { oneOf: AB, discriminator: D }, everyValue: false },
  {
    name: 'the parent says object',
    schema: { type: 'object', oneOf: AB, discriminator: D },
    everyValue: true,
  },
  {
    name: 'the parent says object, nullable',
    schema: { type: 'object', nullable: true, oneOf: AB, discriminator: D },
    everyValue: false,
  },
  {
    name: 'an enum of tags',
    schema: {
      oneOf: [tagged('a'), { ...tagged('b'), properties: { kind: { enum: ['b', 'c'] } } }],
      discriminator: D,
    },
  },
  {
    name: 'required at the parent only',
    schema: { required: ['kind'], oneOf: AB.map((b) => ({ ...b, required: [] })), discriminator: D },
  },
  {
    name: 'required nowhere',
    schema: { oneOf: AB.map((b) => ({ ...b, required: [] })), discriminator: D },
    problem: /required/,
  },
  {
    name: 'required in one branch only',
    schema: { oneOf: [tagged('a'), { ...tagged('b'), required: [] }], discriminator: D },
    problem: /required/,
  },
  {
    name: 'a tag used twice',
    schema: { oneOf: [tagged('a'), tagged('a')], discriminator: D },
    problem: /unique/,
  },
  {
    name: 'an inherited name as a tag',
    schema: { oneOf: [tagged('constructor'), tagged('b')], discriminator: D },
    problem: /unique/,
  },
  {
    name: 'a number as a tag',
    schema: {
      oneOf: [tagged('a'), { ...tagged('b'), properties: { kind: { const: 2 } } }],
      discriminator: D,
    },
    problem: /unique/,
  },
  {
    name: 'an empty const',
    schema: { oneOf: [tagged(''), tagged('b')], discriminator: D },
    problem: /neither/,
  },
  {
    name: 'a branch without the tag',
    schema: { oneOf: [tagged('a'), { type: 'object' }], discriminator: D },
    problem: /no properties/,
  },
  {
    name: 'a boolean branch',
    schema: { oneOf: [tagged('a'), true], discriminator: D },
    problem: /no properties/,
  },
  {
    name: 'a tag without const or enum',
    schema: {
      oneOf: [tagged('a'), { ...tagged('b'), properties: { kind: { type: 'string' } } }],
      discriminator: D,
    },
    problem: /neither/,
  },
  {
    name: 'a mapping',
    schema: { oneOf: AB, discriminator: { ...D, mapping: { a: '#/a' } } },
    problem: /mapping/,
  },
  { name: 'no propertyName', schema: { oneOf: AB, discriminator: {} }, problem: /propertyName/ },
  {
    name: 'a propertyName that is not the tag',
    schema: { oneOf: AB, discriminator: { propertyName: 'v' } },
    problem: /neither/,
  },
  { name: 'no oneOf', schema: { anyOf: AB, discriminator: D }, problem: /oneOf/ },
  { name: 'not an object', schema: { oneOf: AB, discriminator: 'kind' }, problem: /not an object/ },
  {
    name: 'branches by reference',
    schema: { ...defs, oneOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/b' }], discriminator: D },
  },
  {
    name: 'a chain of references',
    schema: { ...defs, oneOf: [{ $ref: '#/$defs/toA' }, { $ref: '#/$defs/b' }], discriminator: D },
  },
  {
    name: 'a reference beside a title',
    schema: { ...defs, oneOf: [{ $ref: '#/$defs/a', title: 'A' }, { $ref: '#/$defs/b' }], discriminator: D },
  },
  {
    name: 'a reference beside a $comment is read as itself',
    schema: {
      ...defs,
      oneOf: [{ $ref: '#/$defs/a', $comment: 'A' }, { $ref: '#/$defs/b' }],
      discriminator: D,
    },
    problem: /no properties/,
  },
  {
    name: 'a reference beside its own tag, not required there',
    schema: {
      ...defs,
      oneOf: [{ $ref: '#/$defs/a', properties: { kind: { const: 'a' } } }, { $ref: '#/$defs/b' }],
      discriminator: D,
    },
    problem: /required/,
  },
  {
    name: 'a reference beside its own required tag',
    schema: {
      ...defs,
      oneOf: [
        { $ref: '#/$defs/a', required: ['kind'], properties: { kind: { const: 'a' } } },
        { $ref: '#/$defs/b' },
      ],
      discriminator: D,
    },
  },
  {
    name: 'a draft-07 reference',
    dialect: 'draft-07',
    schema: {
      definitions: defs.$defs,
      oneOf: [{ $ref: '#/definitions/a' }, { $ref: '#/definitions/b' }],
      discriminator: D,
    },
  },
  {
    name: 'a reference that leads nowhere',
    schema: { oneOf: [{ $ref: '#/$defs/none' }, tagged('b')], discriminator: D },
    problem: /resolved/,
  },
  { name: '2019-09', dialect: '2019-09', schema: { oneOf: AB, discriminator: D } },
];

const read = (schema: JsonObject, dialect: Dialect): DiscriminatorReading =>
  readDiscriminator(schema, dialect, (ref) => resolveRef(schema, ref)?.schema);

const VALUES = [
  'a',
  1,
  null,
  true,
  [],
  {},
  { kind: 'a' },
  { kind: 'a', v: 1 },
  { kind: 'b', v: 'x' },
  { kind: 'c' },
  { kind: 1 },
];

describe('discriminator: whether Ajv with its option on compiles it, and what it then accepts', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const dialect = c.dialect ?? '2020-12';
      const reading = read(c.schema, dialect);
      let compiled: ((v: unknown) => boolean) | undefined;
      try {
        compiled = ajvWith(dialect, true).compile(c.schema);
      } catch {
        compiled = undefined;
      }
      assert.equal(reading.kind === 'holds', compiled !== undefined, JSON.stringify(reading));
      if (c.problem) assert.match((reading as { problem: string }).problem, c.problem);
      if (reading.kind !== 'holds' || !compiled) return;
      if (c.everyValue !== undefined) assert.equal(reading.everyValue, c.everyValue);
      // Where it compiles it reads objects as the oneOf does, and every value when it says so.
      const ignored = ajvWith(dialect, false).compile(c.schema);
      for (const v of VALUES) {
        const isObject = typeof v === 'object' && v !== null && !Array.isArray(v);
        if (isObject || reading.everyValue) assert.equal(compiled(v), ignored(v), JSON.stringify(v));
      }
      if (!reading.everyValue)
        assert.ok(
          VALUES.some((v) => compiled(v) !== ignored(v)),
          'the readings part',
        );
    });
  }

  it('follows a reference exactly when Ajv does: beside nothing it compiles', () => {
    for (const dialect of ['draft-07', '2019-09', '2020-12'] as const) {
      const ajv = ajvWith(dialect, true);
      assert.deepEqual([...compiledKeywords(dialect)].sort(), Object.keys(ajv.RULES.all).sort(), dialect);
    }
  });
});

describe('discriminator: judging a pair for a client that applies it', () => {
  const absent: DiscriminatorReading = { kind: 'absent' };
  const exact: DiscriminatorReading = { kind: 'holds', everyValue: true };
  const open: DiscriminatorReading = { kind: 'holds', everyValue: false };
  const refused: DiscriminatorReading = { kind: 'refused', problem: 'it has a mapping' };
  const rows: [string, DiscriminatorReading, DiscriminatorReading, boolean, boolean, string][] = [
    ['added', absent, open, false, true, 'discriminator-changed'],
    ['added where the parent says object', absent, exact, false, true, 'discriminator-changed'],
    ['removed where the parent says object', exact, absent, false, true, 'discriminator-changed'],
    ['removed, non-objects no longer pass', open, absent, false, true, 'discriminator-ambiguous'],
    ['kept, the oneOf changed', open, open, true, true, 'none'],
    ['kept, the keywords beside changed', open, open, true, false, 'discriminator-ambiguous'],
    ['the parent now says object', open, exact, true, false, 'discriminator-ambiguous'],
    ['the parent no longer says object', exact, open, true, false, 'none'],
    ['now refused', exact, refused, true, true, 'discriminator-ambiguous'],
    ['refused before', refused, exact, false, true, 'discriminator-ambiguous'],
    ['refused alike on both sides', refused, refused, true, true, 'none'],
    ['refused on both sides, changed', refused, refused, false, true, 'discriminator-ambiguous'],
  ];
  for (const [name, sub, sup, same, beside, rule] of rows) {
    it(name, () => assert.equal(judgeDiscriminators(sub, sup, same, beside).rule, rule));
  }
});
