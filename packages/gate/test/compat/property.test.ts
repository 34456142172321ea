import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareSchemas, type Json, type JsonObject } from '../../src/compat/index.ts';
import { sampleValues } from '../../src/compat/generate/sample.ts';
import { independentValidator } from './helpers.ts';
import { independentSamples } from './jsoncompat.ts';

type S = JsonObject;

const clean = (s: unknown): S => JSON.parse(JSON.stringify(s)) as S;

const leaf: fc.Arbitrary<S> = fc
  .oneof(
    fc.record({
      type: fc.constant('string'),
      minLength: fc.option(fc.nat(3), { nil: undefined }),
      maxLength: fc.option(fc.integer({ min: 3, max: 8 }), { nil: undefined }),
    }),
    fc.record({
      type: fc.constantFrom('number', 'integer'),
      minimum: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
      maximum: fc.option(fc.integer({ min: 6, max: 50 }), { nil: undefined }),
    }),
    fc.record({ type: fc.constant('string'), format: fc.constantFrom('email', 'date', 'uuid', 'uri') }),
    fc.record({
      enum: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 1, 2, null), { minLength: 1, maxLength: 4 }),
    }),
    fc.record({ type: fc.constant(['string', 'null']) }),
    fc.record({ type: fc.constant('boolean') }),
    fc.record({
      type: fc.constant('array'),
      items: fc.constantFrom<Json>({ type: 'string' }, { type: 'integer' }, { enum: ['x', 'y'] }),
      maxItems: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    }),
    fc.record({
      anyOf: fc.constantFrom<Json>(
        [{ type: 'string' }, { type: 'integer' }],
        [{ type: 'boolean' }, { type: 'null' }],
      ),
    }),
    fc.record({
      type: fc.constant('object'),
      properties: fc.constant<Json>({ p: { type: 'string' }, q: { type: 'integer' } }),
      required: fc.constantFrom<Json>([], ['p']),
    }),
    fc.constant({ $ref: '#/$defs/Shared' }),
  )
  .map(clean);

/** A recursive definition every schema carries, so $ref and recursion are drawn too. */
const SHARED: Json = {
  type: 'object',
  properties: { v: { type: 'string' }, next: { $ref: '#/$defs/Shared' } },
};

const objectSchema: fc.Arbitrary<S> = fc
  .record({
    props: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), leaf, { minKeys: 1, maxKeys: 4 }),
    required: fc.subarray(['a', 'b', 'c', 'd']),
    closed: fc.boolean(),
  })
  .map(({ props, required, closed }) => {
    const s: S = { type: 'object', properties: props, $defs: { Shared: SHARED } };
    const req = required.filter((r) => r in props);
    if (req.length > 0) s.required = req;
    if (closed) s.additionalProperties = false;
    return clean(s);
  });

/** One random edit of an object schema, of the kinds rule 2 lists. */
function mutate(schema: S, kind: number, pick: number, amount: number): S {
  const s = structuredClone(schema);
  const props = s.properties as Record<string, S>;
  const keys = Object.keys(props);
  if (keys.length === 0) return clean({ ...s, properties: { a: { type: 'string' } } });
  const key = keys[pick % keys.length] as string;
  const p = props[key] as S;
  const required = (s.required as string[] | undefined) ?? [];
  const shared = (s.$defs as { Shared: S }).Shared;
  const nested = p.properties as Record<string, S> | undefined;
  switch (kind % 17) {
    case 0:
      s.required = required.includes(key) ? required.filter((k) => k !== key) : [...required, key];
      break;
    case 1:
      delete props[key];
      break;
    case 2:
      props.e = { type: 'string' };
      if (amount % 2 === 0) s.required = [...required, 'e'];
      break;
    case 3:
      s.additionalProperties = !(s.additionalProperties === false) ? false : true;
      break;
    case 4:
      p.type = ['string', 'number', 'integer', 'boolean', 'null'][amount % 5] as string;
      break;
    case 5:
      p.minLength = amount % 6;
      break;
    case 6:
      p.maxLength = amount % 6;
      break;
    case 7:
      p.minimum = (amount % 11) - 5;
      break;
    case 8:
      p.maximum = amount % 30;
      break;
    case 9:
      if (Array.isArray(p.enum)) p.enum = p.enum.length > 1 ? p.enum.slice(1) : [...p.enum, 'z'];
      else p.enum = ['a', 1];
      break;
    case 10:
      if ('format' in p) delete p.format;
      else p.format = 'date';
      break;
    case 11:
      p.description = `changed ${amount}`;
      break;
    case 12:
      props[key] = { anyOf: [p, { type: 'null' }] };
      break;
    case 13:
      p.multipleOf = [1, 2, 0.5][amount % 3] as number;
      break;
    case 14: {
      const variants: S[] = [
        { type: 'string', maxLength: amount % 4 },
        { type: ['string', 'null'] },
        { type: 'integer' },
      ];
      (shared.properties as Record<string, S>).v = variants[amount % 3] as S;
      break;
    }
    case 15:
      if (nested) p.required = Array.isArray(p.required) && p.required.length > 0 ? [] : ['p', 'q'];
      else p.type = 'object';
      break;
    case 16:
      if (nested) nested.q = { type: ['number', 'integer', 'string'][amount % 3] as string };
      else delete p.type;
      break;
  }
  if (Array.isArray(s.required) && s.required.length === 0) delete s.required;
  return clean(s);
}

/** Drops undeclared root properties: under the open-objects policy callers never send them. */
function declaredOnly(value: unknown, schema: S): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const props = schema.properties as Record<string, unknown>;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k in props));
}

function check(
  before: S,
  after: S,
  strictOpenObjects: boolean,
  independent = false,
  direction: 'input' | 'output' = 'input',
): void {
  const result = compareSchemas(before, after, direction, { strictOpenObjects });
  // For an output schema the roles swap: the new side's values must be accepted by the old side.
  if (direction === 'output') [before, after] = [after, before];
  // The library cross-checks itself by sampling; a disagreement would mean the static rules were wrong.
  assert.ok(
    !result.findings.some((f) => f.rule === 'sampling-disagrees'),
    `rules contradicted by sampling: ${JSON.stringify(result.findings)}`,
  );
  const old = independentValidator(before);
  const now = independentValidator(after);
  if (result.verdict === 'breaking') {
    for (const f of result.findings.filter((x) => x.verdict === 'breaking')) {
      assert.ok(f.witness !== undefined, `${f.rule} without a witness`);
      assert.equal(old(f.witness), true, `${f.rule}: witness ${JSON.stringify(f.witness)} not valid before`);
      assert.equal(
        now(f.witness),
        false,
        `${f.rule}: witness ${JSON.stringify(f.witness)} still valid after`,
      );
    }
  }
  if (result.verdict === 'compatible' || result.verdict === 'identical') {
    const ours = sampleValues(before, '2020-12', 60, 99, strictOpenObjects);
    const theirs = (independent ? independentSamples(before, 12) : []).map((v) =>
      strictOpenObjects ? v : declaredOnly(v, before),
    );
    for (const v of [...ours, ...theirs]) {
      if (old(v))
        assert.equal(
          now(v),
          true,
          `compatible, yet ${JSON.stringify(v)} is rejected: ${JSON.stringify(result.findings)}`,
        );
    }
  }
}

describe('property: the verdict agrees with sampling', () => {
  const edits = fc.tuple(objectSchema, fc.nat(), fc.nat(), fc.nat());
  it('default policy (open objects: callers send declared properties only)', () => {
    fc.assert(
      fc.property(edits, ([schema, kind, pick, amount]) =>
        check(schema, mutate(schema, kind, pick, amount), false),
      ),
      { numRuns: 200, seed: 20261129 },
    );
  });

  it('strict open objects', () => {
    fc.assert(
      fc.property(edits, ([schema, kind, pick, amount]) =>
        check(schema, mutate(schema, kind, pick, amount), true),
      ),
      { numRuns: 100, seed: 7 },
    );
  });

  it("compatible verdicts hold against jsoncompat's independent value generator", () => {
    fc.assert(
      fc.property(edits, ([schema, kind, pick, amount]) =>
        check(schema, mutate(schema, kind, pick, amount), false, true),
      ),
      { numRuns: 40, seed: 5 },
    );
  });

  it('two random edits in a row, both directions of the same pair', () => {
    fc.assert(
      fc.property(
        fc.tuple(objectSchema, fc.nat(), fc.nat(), fc.nat(), fc.nat()),
        ([schema, k1, k2, pick, amount]) => {
          const edited = mutate(mutate(schema, k1, pick, amount), k2, pick + 1, amount + 3);
          check(schema, edited, false);
          check(edited, schema, false);
          check(schema, edited, false, false, 'output');
        },
      ),
      { numRuns: 100, seed: 42 },
    );
  });
});
