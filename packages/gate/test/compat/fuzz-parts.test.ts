import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCampaign } from '../../fuzz/campaign.ts';
import { reachedDefinitions, seedCorpus } from '../../fuzz/corpus.ts';
import { undeclaredKey } from '../../fuzz/declared.ts';
import { canonical, type Json, type JsonObject } from '../../fuzz/json.ts';
import { unknownReasons, type GateFinding } from '../../fuzz/judge.ts';
import { FAMILIES, mutatePair } from '../../fuzz/mutate.ts';
import { accepts, compile, readings } from '../../fuzz/oracle.ts';
import { mixSeed, Rng } from '../../fuzz/prng.ts';
import { reasonTable } from '../../fuzz/report.ts';
import { DOCUMENTED_DEPTH, justifiedRefusal } from '../../fuzz/refused.ts';
import { budget, shrinkPair, shrinkValue } from '../../fuzz/shrink.ts';
import { findCounterexample, orient, separates } from '../../fuzz/values.ts';

describe('fuzzer: the generator', () => {
  it('gives the same draws for the same seed and other draws for another', () => {
    const draw = (seed: number): number[] => {
      const r = new Rng(seed);
      return Array.from({ length: 8 }, () => r.int(1000));
    };
    assert.deepEqual(draw(7), draw(7));
    assert.notDeepEqual(draw(7), draw(8));
    assert.equal(mixSeed(1, 2), mixSeed(1, 2));
    assert.notEqual(mixSeed(1, 2), mixSeed(2, 1));
  });

  it('keeps int, between and pick within their ranges', () => {
    const r = new Rng(3);
    for (let i = 0; i < 500; i++) {
      const n = r.int(5);
      assert.ok(Number.isInteger(n) && n >= 0 && n < 5);
      const b = r.between(-2, 2);
      assert.ok(b >= -2 && b <= 2);
    }
    assert.throws(() => r.pick([]));
  });
});

describe('fuzzer: the seed corpus', () => {
  const seeds = seedCorpus();

  it('holds tool schemas and specification definitions, each text once', () => {
    assert.ok(seeds.some((s) => s.origin === 'tool'));
    assert.ok(seeds.some((s) => s.origin === 'spec'));
    assert.equal(new Set(seeds.map((s) => canonical(s.schema))).size, seeds.length);
  });

  it('gives a definition only the definitions it reaches', () => {
    const defs: JsonObject = { A: { $ref: '#/$defs/B' }, B: { type: 'string' }, C: { type: 'integer' } };
    assert.deepEqual(reachedDefinitions({ $ref: '#/$defs/A' }, defs), ['A', 'B']);
  });
});

describe('fuzzer: the edit families', () => {
  const seeds = seedCorpus();

  it('has at least 18 families, each named once', () => {
    assert.ok(FAMILIES.length >= 18);
    assert.equal(new Set(FAMILIES.map((f) => f.name)).size, FAMILIES.length);
  });

  for (const family of FAMILIES)
    it(`${family.name}: makes a schema that differs from the old one, the same for the same seed`, () => {
      for (let i = 0; i < 12; i++) {
        const a = mutatePair(new Rng(mixSeed(11, i)), seeds, family);
        const b = mutatePair(new Rng(mixSeed(11, i)), seeds, family);
        assert.equal(a.family, family.name);
        assert.notEqual(canonical(a.old), canonical(a.new));
        assert.equal(canonical(a.new), canonical(b.new));
        assert.equal(canonical(a.old), canonical(b.old));
      }
    });
});

describe('fuzzer: the oracle', () => {
  it('reads a schema without $schema both as 2020-12 and as draft-07', () => {
    assert.deepEqual(readings({}, {}), [
      { old: '2020-12', new: '2020-12' },
      { old: 'draft-07', new: 'draft-07' },
    ]);
    const d7 = 'http://json-schema.org/draft-07/schema#';
    assert.deepEqual(readings({ $schema: d7 }, {}), [
      { old: 'draft-07', new: '2020-12' },
      { old: 'draft-07', new: 'draft-07' },
    ]);
    assert.deepEqual(readings({ $schema: d7 }, { $schema: d7 }), [{ old: 'draft-07', new: 'draft-07' }]);
    assert.deepEqual(readings({ $schema: 'http://json-schema.org/draft-04/schema#' }, {}), []);
  });

  it('holds a value against a compatible answer when only the draft-07 reading separates it', () => {
    // Under draft-07 prefixItems is no keyword, so the old schema accepts any array.
    const old = { type: 'array', prefixItems: [{ type: 'integer' }] };
    const neu = { type: 'array', items: { type: 'integer' } };
    assert.deepEqual(separates(orient(old, neu, 'input'), ['a']), { source: 'draft-07', target: 'draft-07' });
  });

  it('asserts formats, numeric ones included, as ajv-formats does', () => {
    assert.equal(accepts({ type: 'integer', format: 'int32' }, '2020-12', 2 ** 31), false);
    assert.equal(accepts({ type: 'integer', format: 'int32' }, '2020-12', 2 ** 31 - 1), true);
    assert.equal(accepts({ type: 'number', format: 'int64' }, '2020-12', 0.5), false);
    assert.equal(accepts({ type: 'string', format: 'email' }, 'draft-07', 'a@b'), false);
  });

  it('cannot compile invalid schemas, and says why', () => {
    const invalid: Json[] = [
      { type: ['string', 'string'] },
      { required: 1 },
      { $defs: { A: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' },
      { $defs: { A: { minLength: -1 } }, $ref: '#/$defs/A' },
    ];
    for (const s of invalid) assert.equal(compile(s, '2020-12').ok, false, JSON.stringify(s));
    assert.equal(compile({ 'x-mcp-header': 'X-Id', type: 'string' }, '2020-12').ok, true);
  });

  it('checks a definition by its document’s meta-schema, as Ajv checks the whole', () => {
    // Only a root may declare $schema; Ajv reads a definition's as a string like any other.
    const d7 = 'http://json-schema.org/draft-07/schema#';
    const doc = (def: Json): Json => ({ $defs: { A: def }, properties: { a: { $ref: '#/$defs/A' } } });
    const c = compile(doc({ $schema: d7, type: 'string', minLength: 2 }), '2020-12');
    assert.ok(c.ok);
    assert.equal(c.ok && c.validate({ a: 'x' }), false);
    assert.equal(compile(doc({ $schema: d7, minLength: -1 }), '2020-12').ok, false);
  });
});

describe('fuzzer: the open-objects policy', () => {
  const table: [string, Json, Json, string | undefined][] = [
    ['a key in properties', { properties: { a: {} } }, { a: 1 }, undefined],
    ['a key of an open object', { properties: { a: {} } }, { b: 1 }, '/b'],
    ['a key of an object open by additionalProperties: true', { additionalProperties: true }, { b: 1 }, '/b'],
    ['a key matching patternProperties', { patternProperties: { '^x-': {} } }, { 'x-a': 1 }, undefined],
    [
      'a key of an additionalProperties map',
      { additionalProperties: { type: 'string' } },
      { b: 'x' },
      undefined,
    ],
    ['a required key nothing else declares', { required: ['r'] }, { r: 1 }, undefined],
    ['a nested undeclared key', { properties: { a: { properties: {} } } }, { a: { z: 1 } }, '/a/z'],
    [
      'a key declared behind a $ref',
      { $defs: { D: { properties: { d: {} } } }, $ref: '#/$defs/D' },
      { d: 1 },
      undefined,
    ],
  ];
  for (const [name, schema, value, expected] of table)
    it(name, () => assert.equal(undeclaredKey(schema, value), expected));

  it('reads a dependent schema as declaring its keys only where the dialect applies it', () => {
    const schema = { properties: { path: true }, dependentSchemas: { path: { properties: { id: {} } } } };
    const value = { path: '', id: '' };
    assert.equal(undeclaredKey(schema, value, undefined, '2020-12'), undefined);
    assert.equal(undeclaredKey(schema, value, undefined, 'draft-07'), '/id');
  });

  it('counts a value with an undeclared key only under strict open objects', () => {
    const old = { type: 'object', properties: { a: { type: 'string' } } };
    const neu = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } };
    const o = orient(old, neu, 'input');
    assert.equal(findCounterexample(o, false, new Rng(1)), undefined);
    assert.ok(findCounterexample(o, true, new Rng(1)));
  });
});

describe('fuzzer: the counterexample search', () => {
  const breaks: [string, Json, Json][] = [
    ['int32 added', { type: 'integer' }, { type: 'integer', format: 'int32' }],
    [
      'propertyNames over a map',
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'object', additionalProperties: { type: 'string' }, propertyNames: { maxLength: 3 } },
    ],
    [
      'an if gaining a then',
      { type: 'object', properties: { a: { type: 'string' }, b: {} }, if: { required: ['a'] } },
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: {} },
        if: { required: ['a'] },
        then: { required: ['b'] },
      },
    ],
    ['a maximum lowered', { type: 'number', maximum: 10 }, { type: 'number', maximum: 9.5 }],
    ['an enum value removed', { enum: ['a', 'b'] }, { enum: ['a'] }],
  ];
  for (const [name, old, neu] of breaks)
    it(`finds a value for: ${name}`, () => {
      const o = orient(old, neu, 'input');
      const c = findCounterexample(o, false, new Rng(1));
      assert.ok(c, 'no counterexample');
      assert.ok(separates(o, c.value));
    });

  const compatible: [string, Json, Json][] = [
    ['a maxLength raised', { type: 'string', maxLength: 3 }, { type: 'string', maxLength: 4 }],
    ['a branch added', { type: 'string' }, { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    ['a required name dropped', { required: ['a'], properties: { a: {} } }, { properties: { a: {} } }],
  ];
  for (const [name, old, neu] of compatible)
    it(`finds none for: ${name}`, () =>
      assert.equal(findCounterexample(orient(old, neu, 'input'), true, new Rng(1)), undefined));

  it('reads an output pair the other way round', () => {
    const o = orient({ type: 'string' }, { type: ['string', 'null'] }, 'output');
    assert.equal(findCounterexample(o, false, new Rng(1))?.value, null);
  });
});

describe('fuzzer: the minimiser', () => {
  it('shrinks a value while it keeps its property', () => {
    const v = shrinkValue(
      { a: 'hello', b: [1, 2, 3], c: { d: 2147483648 } },
      (x) => JSON.stringify(x).includes('2147483648'),
      budget(500, 5000),
    );
    assert.deepEqual(v, { c: { d: 2147483648 } });
  });

  it('removes what both sides hold alike and keeps the change', () => {
    const common = {
      description: 'long text',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
    };
    const old: JsonObject = { ...structuredClone(common), required: ['a'] };
    const neu: JsonObject = { ...structuredClone(common), required: ['a', 'b'] };
    const keeps = (o: JsonObject, n: JsonObject): boolean =>
      canonical(o.required ?? null) !== canonical(n.required ?? null);
    assert.deepEqual(shrinkPair({ old, new: neu }, keeps, budget(500, 5000)), {
      old: { required: ['a'] },
      new: { required: ['a', 'b'] },
    });
  });
});

describe('fuzzer: the unknowns by reason', () => {
  it('names each unknown finding by its rule, and a break it could not confirm by how', () => {
    const f = (rule: string, verdict: string, reason?: string): GateFinding => ({
      rule,
      verdict,
      pointer: '',
      ...(reason === undefined ? {} : { reason }),
    });
    const keys = unknownReasons([
      f('schema-too-deep', 'unknown'),
      f('type-narrowed', 'unknown', 'the witness built for it was not confirmed by the validator'),
      f('type-narrowed', 'unknown', 'the witness built for it was not confirmed by the validator'),
      f('min-properties-increased', 'unknown', 'no witness could be built for it'),
      f('required-added', 'breaking'),
      f('property-added-to-open-object', 'compatible'),
    ]);
    assert.deepEqual(keys, [
      'min-properties-increased: no witness built',
      'schema-too-deep',
      'type-narrowed: witness not confirmed',
    ]);
  });

  it('counts a run of unknowns under the reasons the gate gave', () => {
    const result = runCampaign({ pairs: 80, seed: 5, family: 'format', keep: 1 });
    const counted = Object.values(result.totals.reasons).reduce((a, b) => a + b, 0);
    assert.ok(result.totals.outcomes.unknown > 0);
    // Every unknown has a reason; one with several counts under each.
    assert.ok(counted >= result.totals.outcomes.unknown);
    const table = reasonTable(result);
    for (const reason of Object.keys(result.totals.reasons)) assert.ok(table.includes(`\`${reason}\``));
  });

  it('counts invalid and looping schemas as refused input, each under its reason', () => {
    const result = runCampaign({ pairs: 60, seed: 5, family: 'malformed', keep: 1 });
    const t = result.totals;
    assert.equal(t.outcomes.refused, t.judged, JSON.stringify(t.reasons));
    assert.equal(t.outcomes.unknown, 0);
    const table = reasonTable(result, 'refusals');
    for (const reason of Object.keys(t.refusals)) assert.ok(table.includes(`\`${reason}\``));
  });
});

describe('fuzzer: a refusal counts apart only when the oracle agrees', () => {
  const nest = (depth: number): Json => {
    let s: Json = { type: 'string' };
    for (let i = 0; i < depth; i++) s = { type: 'array', items: s };
    return s;
  };
  const ok = { type: 'object', properties: { a: { type: 'string' } } };
  const loop = {
    $defs: { L: { $ref: '#/$defs/L' } },
    type: 'object',
    properties: { a: { $ref: '#/$defs/L' } },
  };
  const cases: [string, string[], Json, Json, boolean][] = [
    ['an invalid keyword value', ['schema-invalid'], ok, { ...ok, required: 1 }, true],
    ['a $ref to nothing', ['ref-unresolvable'], ok, { ...ok, $ref: '#/$defs/Missing' }, true],
    ['a definition that is only itself', ['ref-cycle'], ok, loop, true],
    ['deeper than the bound', ['schema-too-deep'], ok, nest(DOCUMENTED_DEPTH), true],
    ['said to be invalid, but Ajv compiles and applies both', ['schema-invalid'], ok, ok, false],
    ['said to be too deep, but within the bound', ['schema-too-deep'], ok, nest(20), false],
    [
      'a refusal beside an undecided rule',
      ['schema-invalid', 'format-unknown'],
      ok,
      { ...ok, required: 1 },
      false,
    ],
    ['no reason at all', [], ok, { ...ok, required: 1 }, false],
  ];
  for (const [name, reasons, old, neu, expected] of cases)
    it(name, () =>
      assert.equal(justifiedRefusal(reasons, old as JsonObject, neu as JsonObject, 'input'), expected),
    );
});
