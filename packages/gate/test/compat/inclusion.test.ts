import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { compareSchemas, type Schema } from '../../src/compat/index.ts';
import { FIXTURES, independentValidator, readJson } from './helpers.ts';

/** One definition of a published MCP schema revision, as a standalone schema. */
function definition(revision: string, name: string): Schema {
  const doc = readJson<Record<string, unknown>>(path.join(FIXTURES, 'mcp-spec', `${revision}.json`));
  const key = doc.definitions ? 'definitions' : '$defs';
  return { $schema: doc.$schema as string, [key]: doc[key] as never, $ref: `#/${key}/${name}` };
}

function assertWitnesses(
  base: Schema,
  head: Schema,
  findings: { verdict: string; witness?: unknown }[],
): void {
  for (const f of findings.filter((x) => x.verdict === 'breaking')) {
    assert.equal(independentValidator(base)(f.witness), true, 'witness valid before');
    assert.equal(independentValidator(head)(f.witness), false, 'witness rejected after');
  }
}

describe('inclusion with memory: the reported wrong verdicts', () => {
  // The recursive definition V: arrays of V, or strings. The new side adds minItems beside the
  // $ref inside V, so [[[]]] (an empty array at the second level of V) was valid and is now rejected.
  const V = (items: Schema): Schema => ({ anyOf: [{ type: 'array', items }, { type: 'string' }] });
  const recursive = (items: Schema): Schema => ({
    type: 'array',
    items: { $ref: '#/$defs/V' },
    $defs: { V: V(items) as never },
  });

  it('minItems beside a $ref inside a recursive $defs entry is breaking, with [[[]]] as witness', () => {
    const base = recursive({ $ref: '#/$defs/V' });
    const head = recursive({ $ref: '#/$defs/V', minItems: 1 });
    assert.equal(independentValidator(base)([[[]]]), true);
    assert.equal(independentValidator(head)([[[]]]), false);
    const r = compareSchemas(base, head, 'input');
    assert.equal(r.verdict, 'breaking');
    assert.ok(!r.findings.some((f) => f.rule === 'recursion-too-deep'), JSON.stringify(r.findings));
    const f = r.findings.find((x) => x.rule === 'min-items-increased');
    assert.equal(f?.pointer, '/$defs/V/anyOf/0/items/minItems');
    assertWitnesses(base, head, r.findings);
  });

  it('the same pair wrapped as a tool input is breaking too, without exploring every depth', () => {
    const wrap = (items: Schema): Schema => ({
      type: 'object',
      properties: { v: { type: 'array', items: { $ref: '#/$defs/V' } } },
      required: ['v'],
      $defs: { V: V(items) as never },
    });
    const base = wrap({ $ref: '#/$defs/V' });
    const head = wrap({ $ref: '#/$defs/V', minItems: 1 });
    const r = compareSchemas(base, head, 'input');
    assert.equal(r.verdict, 'breaking');
    assert.ok(!r.findings.some((f) => f.rule === 'recursion-too-deep'), JSON.stringify(r.findings));
    assert.equal(r.findings.filter((f) => f.rule === 'min-items-increased').length, 1);
    assertWitnesses(base, head, r.findings);
  });

  it('a failed anyOf trial through shared $refs does not make a later property compatible', () => {
    const defs = (s: Schema): Schema => ({ S: s });
    const tool = (order: string[], s: Schema): Schema => {
      const all: Record<string, Schema> = {
        x: { anyOf: [{ $ref: '#/$defs/S' }, { type: 'string' }] },
        y: { $ref: '#/$defs/S' },
      };
      return {
        type: 'object',
        properties: Object.fromEntries(order.map((k) => [k, all[k] as Schema])),
        $defs: defs(s) as never,
      };
    };
    for (const order of [
      ['x', 'y'],
      ['y', 'x'],
    ]) {
      const base = tool(order, { type: 'string' });
      const head = tool(order, { type: 'string', maxLength: 40 });
      const r = compareSchemas(base, head, 'input');
      assert.equal(r.verdict, 'breaking', `order ${order.join(',')}`);
      assert.ok(
        r.findings.some((f) => f.rule === 'max-length-decreased' && f.pointer === '/$defs/S/maxLength'),
      );
      assertWitnesses(base, head, r.findings);
    }
  });
});

describe('inclusion with memory: never hangs', () => {
  it('patternProperties "" added to an open object returns (assumed; breaking under strict set semantics)', () => {
    const base: Schema = { type: 'object' };
    const head: Schema = { type: 'object', patternProperties: { '': { type: 'string' } } };
    const r = compareSchemas(base, head, 'input');
    assert.equal(r.verdict, 'compatible');
    assert.deepEqual(
      r.findings.map((f) => f.rule),
      ['pattern-property-added'],
    );
    const strict = compareSchemas(base, head, 'input', { strictOpenObjects: true });
    assert.equal(strict.verdict, 'breaking');
    assertWitnesses(base, head, strict.findings);
  });

  it('ClientCapabilities and ServerCapabilities 2025-11-25 → 2026-07-28 are decided', () => {
    for (const name of ['ClientCapabilities', 'ServerCapabilities']) {
      const r = compareSchemas(definition('2025-11-25', name), definition('2026-07-28', name), 'input');
      assert.notEqual(r.verdict, 'unknown', `${name}: ${JSON.stringify(r.findings.slice(0, 3))}`);
      assert.ok(!r.findings.some((f) => f.rule === 'recursion-too-deep' || f.rule === 'budget-exhausted'));
    }
  });

  it('a work budget ends in unknown with a finding that says so, reproducibly', () => {
    const base = definition('2025-11-25', 'ServerCapabilities');
    const head = definition('2026-07-28', 'ServerCapabilities');
    const a = compareSchemas(base, head, 'input', { budget: 5 });
    const b = compareSchemas(base, head, 'input', { budget: 5 });
    assert.equal(a.verdict, 'unknown');
    assert.ok(a.findings.some((f) => f.rule === 'budget-exhausted'));
    assert.deepEqual(a, b);
  });
});

describe('inclusion: allOf branches that are references', () => {
  // A node whose $ref has a sibling keyword is read as an allOf of the two (2019-09 on). The
  // branch that is the reference was followed one hop only and then merged into the node, so a
  // reference at the end of a chain was read as a keyword of the node and its target never
  // compared (found by the differential fuzzer, seed 11).
  const doc = (result: Schema, hops: number, beside: Record<string, Schema>): Schema => {
    const defs: Record<string, Schema> = { Result: result };
    let name = 'Result';
    for (let i = 0; i < hops; i++) {
      defs[`Hop${i}`] = { $ref: `#/$defs/${name}` };
      name = `Hop${i}`;
    }
    return { $ref: `#/$defs/${name}`, $defs: defs as never, ...beside };
  };
  const open = (count?: Schema): Schema => ({
    additionalProperties: {},
    properties: count ? { count } : {},
  });
  const closed = (count?: Schema): Schema => ({
    type: 'object',
    properties: { count: count ?? {} },
    additionalProperties: false,
  });
  for (const [shape, make] of [
    ['an open map', open],
    ['a closed object', closed],
  ] as const)
    for (const hops of [0, 1, 2, 3])
      for (const beside of [
        { if: { type: 'string' } },
        { minProperties: 0 },
        { title: 'only text' },
      ] as Record<string, Schema>[]) {
        const label = `${shape}, ${hops} reference(s) before it, beside ${Object.keys(beside)[0]}`;
        it(`${label}: a property narrowed there is breaking, and widened back compatible`, () => {
          const wide = doc(make(), hops, {});
          const narrow = doc(make({ type: 'object' }), hops, beside);
          const r = compareSchemas(wide, narrow, 'input');
          assert.equal(r.verdict, 'breaking', JSON.stringify(r.findings));
          assertWitnesses(wide, narrow, r.findings);
          assert.ok(r.findings.some((f) => f.verdict === 'breaking' && f.witness !== undefined));
          // The other direction: the new side accepts every value the old one did.
          const back = compareSchemas(narrow, wide, 'input');
          assert.notEqual(back.verdict, 'breaking', JSON.stringify(back.findings));
          // As output the roles swap: narrowing what a tool returns breaks no reader.
          assert.notEqual(compareSchemas(wide, narrow, 'output').verdict, 'breaking');
        });
      }

  it('a reference beside another keyword inside an allOf branch is compared through', () => {
    const wide: Schema = { allOf: [{ $ref: '#/$defs/S', minLength: 1 }], $defs: { S: { type: 'string' } } };
    const narrow: Schema = {
      allOf: [{ $ref: '#/$defs/S', minLength: 1 }],
      $defs: { S: { type: 'string', maxLength: 3 } },
    };
    const r = compareSchemas(wide, narrow, 'input');
    assert.equal(r.verdict, 'breaking', JSON.stringify(r.findings));
    assertWitnesses(wide, narrow, r.findings);
  });
});

describe('inclusion: allOf conjuncts at two levels that do not fold', () => {
  // Folding an allOf merges each conjunct into its node and keeps the ones that conflict (a
  // keyword said twice). A conjunct kept at the inner level was brought up with its branch, then
  // dropped when the outer level kept one of its own: `not: {const: "kil"}` below was never
  // compared, and a change that rejects "kil" was answered compatible.
  const excludes = (value: string): Schema => ({ not: { const: value } });
  const orders = <T>(xs: T[]): T[][] =>
    xs.length <= 1
      ? [xs]
      : xs.flatMap((x, i) => orders([...xs.slice(0, i), ...xs.slice(i + 1)]).map((r) => [x, ...r]));
  const old: Schema = { type: 'string', maxLength: 3 };
  for (const inner of orders([excludes('zzzz'), excludes('kil')]))
    for (const outer of orders<Schema>([{ allOf: inner }, { maxLength: 3 }, { maxLength: 4 }]))
      for (const reached of [false, true]) {
        const label = `inner ${inner.map((s) => JSON.stringify(s)).join(', ')}; outer order ${outer
          .map((s) => Object.keys(s as object)[0])
          .join(', ')}${reached ? '; the inner level a definition' : ''}`;
        it(`${label}: excluding a value the old side accepts is breaking`, () => {
          const next: Schema = reached
            ? {
                type: 'string',
                allOf: outer.map((s) => ((s as { allOf?: unknown }).allOf ? { $ref: '#/$defs/Inner' } : s)),
                $defs: { Inner: { allOf: inner } },
              }
            : { type: 'string', allOf: outer };
          const r = compareSchemas(old, next, 'input');
          assert.equal(r.verdict, 'breaking', JSON.stringify(r.findings));
          assertWitnesses(old, next, r.findings);
          assert.ok(r.findings.some((f) => f.verdict === 'breaking' && f.witness === 'kil'));
          // Back again, the new side accepts every value the old one did; as output, nothing breaks.
          assert.notEqual(compareSchemas(next, old, 'input').verdict, 'breaking');
          assert.notEqual(compareSchemas(old, next, 'output').verdict, 'breaking');
        });
      }
});

describe('inclusion: a oneOf beside an anyOf', () => {
  // A node holding both is read as both: the walk compared the anyOf and, when it was the same
  // on both sides, nothing else, so a oneOf beside it changed unseen (found by an exhaustive
  // check of nested combinators against Ajv).
  const S = (extra: Record<string, unknown>): Schema => ({ type: 'string', ...extra }) as Schema;
  const cases: [string, Schema, Schema][] = [
    [
      'the oneOf narrowed',
      S({ anyOf: [{}], oneOf: [{ maxLength: 5 }] }),
      S({ anyOf: [{}], oneOf: [{ maxLength: 3 }] }),
    ],
    [
      'a oneOf added',
      S({ anyOf: [{ minLength: 0 }] }),
      S({ anyOf: [{ minLength: 0 }], oneOf: [{ maxLength: 3 }] }),
    ],
    [
      'both brought in by allOf branches',
      S({ allOf: [{ anyOf: [{}] }, { oneOf: [{ maxLength: 5 }] }] }),
      S({ allOf: [{ anyOf: [{}] }, { oneOf: [{ maxLength: 3 }] }] }),
    ],
  ];
  for (const [name, old, next] of cases)
    it(`${name}: breaking, with a witness Ajv confirms; compatible back`, () => {
      const r = compareSchemas(old, next, 'input');
      assert.equal(r.verdict, 'breaking', JSON.stringify(r.findings));
      assertWitnesses(old, next, r.findings);
      assert.ok(r.findings.some((f) => f.verdict === 'breaking' && f.witness !== undefined));
      assert.notEqual(compareSchemas(next, old, 'input').verdict, 'breaking');
      assert.notEqual(compareSchemas(old, next, 'output').verdict, 'breaking');
    });
  it('a branch that excludes what only a long string shows: never compatible', () => {
    // "aaa" is valid before (the old branch holds strings of 3 or more) and rejected after.
    const old = S({
      allOf: [
        { pattern: '^a' },
        { anyOf: [{}] },
        { oneOf: [{ not: { oneOf: [{}, { not: { maxLength: 2 } }] } }] },
      ],
    });
    const next = S({
      allOf: [{ pattern: '^a' }, { anyOf: [{}] }, { oneOf: [{ enum: ['aa', 'zz', 'abab'] }] }],
    });
    assert.equal(independentValidator(old)('aaa'), true);
    assert.equal(independentValidator(next)('aaa'), false);
    const r = compareSchemas(old, next, 'input');
    assert.notEqual(r.verdict, 'compatible', JSON.stringify(r.findings));
    assertWitnesses(old, next, r.findings);
  });
});

describe('inclusion: a `not` of `required` excludes every value that is not an object', () => {
  // `required` holds of any value that is not an object, so `{"not": {"required": ["b"]}}`
  // rejects them all. The walk took it to exclude nothing where the old side held no objects.
  const not = { not: { required: ['b'] } };
  const cases: [string, Schema, Schema][] = [
    ['an integer', { type: 'integer' }, { type: 'integer', ...not }],
    ['a string, in an allOf', { type: 'string' }, { allOf: [{ type: 'string' }, not] }],
    [
      'an array',
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { type: 'string' }, ...not },
    ],
    [
      'the value of a pattern property',
      { type: 'object', patternProperties: { b: { type: 'integer' } } },
      { type: 'object', patternProperties: { b: { allOf: [{ type: 'integer' }, not] } } },
    ],
  ];
  for (const [name, old, next] of cases)
    it(`${name}: breaking, with a witness Ajv confirms`, () => {
      const r = compareSchemas(old, next, 'input', { strictOpenObjects: true });
      assert.equal(r.verdict, 'breaking', JSON.stringify(r.findings));
      assertWitnesses(old, next, r.findings);
      assert.ok(r.findings.some((f) => f.verdict === 'breaking' && f.witness !== undefined));
      assert.notEqual(compareSchemas(next, old, 'input').verdict, 'breaking');
    });
  it('an object that may hold the name: still decided by the names it may hold', () => {
    const closed: Schema = { type: 'object', properties: { a: {} }, additionalProperties: false };
    const r = compareSchemas(closed, { ...(closed as object), ...not } as Schema, 'input');
    assert.equal(r.verdict, 'compatible', JSON.stringify(r.findings));
  });
});

describe('unreachable: a `not` of keywords of one type admits only that type', () => {
  // `{"not": {"minItems": 0}}` rejects every array and lets nothing else through either: every
  // value that is not an array passes `minItems`. A node that also asks for another type accepts
  // nothing, and a change there breaks nothing (said so, rather than unknown).
  const cases: [string, Schema, Schema][] = [
    [
      'a string under a not of required',
      { type: 'string', not: { required: ['a'] } },
      { type: 'string', not: { required: ['a'] }, maxLength: 1 },
    ],
    [
      'an integer under a not of a string keyword',
      { type: 'integer', not: { minLength: 0 } },
      { type: 'integer', not: { minLength: 0 }, maximum: 1 },
    ],
    [
      'an object under a not of an array keyword',
      { type: 'object', not: { minItems: 0 } },
      { type: 'object', not: { minItems: 0 }, required: ['a'] },
    ],
  ];
  for (const [name, old, next] of cases)
    it(`${name}: the change is unreachable`, () => {
      const r = compareSchemas(old, next, 'input', { strictOpenObjects: true });
      assert.equal(r.verdict, 'compatible', JSON.stringify(r.findings));
      assert.deepEqual(
        r.findings.map((f) => f.rule),
        ['change-unreachable'],
      );
    });
  it('a not of keywords of two types excludes neither type whole', () => {
    // It rejects strings of 2 or more and arrays of 2 or more items: "a" stays, and is lost here.
    const old: Schema = { type: ['string', 'array'], not: { minLength: 2, minItems: 2 } };
    const next: Schema = { ...(old as object), maxLength: 0 } as Schema;
    const r = compareSchemas(old, next, 'input');
    assert.equal(r.verdict, 'breaking', JSON.stringify(r.findings));
    assertWitnesses(old, next, r.findings);
  });
});

describe('folding many allOf branches of properties', () => {
  // The fold adds each branch's properties to one map of its own (a copy per branch cost the
  // square of their number: 5,000 branches took 21 s); the documents it reads stay as they were.
  const wide = (n: number, max: number): Schema => ({
    type: 'object',
    properties: { own: { type: 'string' } },
    allOf: Array.from({ length: n }, (_, i) => ({
      properties: { [`p${i}`]: { type: 'string', maxLength: max } },
    })),
  });
  it('each narrowed property is found where its branch writes it, and neither document changes', () => {
    const [old, next] = [wide(300, 5), wide(300, 4)];
    const [oldText, nextText] = [JSON.stringify(old), JSON.stringify(next)];
    const r = compareSchemas(old, next, 'input');
    assert.equal(r.verdict, 'breaking');
    assert.equal(r.findings.filter((f) => f.rule === 'max-length-decreased').length, 300);
    assert.ok(r.findings.some((f) => f.pointer === '/allOf/299/properties/p299/maxLength'));
    assert.equal(JSON.stringify(old), oldText);
    assert.equal(JSON.stringify(next), nextText);
  });
  // Required names unite in one list of the fold's own too (a union built anew per branch cost
  // the square of their number), each name once, and no document's list is written.
  const requiring = (n: number, also: number): Schema => ({
    type: 'object',
    properties: { own: { type: 'string' } },
    required: ['own'],
    allOf: Array.from({ length: n }, (_, i) => ({
      properties: { [`p${i}`]: { type: 'string' } },
      required: i === also ? [`p${i}`, 'own', 'extra'] : [`p${i}`, 'own'],
    })),
  });
  it('required names of many branches unite, and a name added in one branch is found there', () => {
    const [old, next] = [requiring(300, -1), requiring(300, 150)];
    const [oldText, nextText] = [JSON.stringify(old), JSON.stringify(next)];
    const r = compareSchemas(old, next, 'input');
    assert.equal(r.verdict, 'breaking');
    const added = r.findings.filter((f) => f.verdict === 'breaking');
    assert.equal(added.length, 1);
    assert.equal(added[0]?.pointer, '/allOf/150/required');
    assert.equal(compareSchemas(next, old, 'input').verdict, 'compatible');
    assert.equal(JSON.stringify(old), oldText);
    assert.equal(JSON.stringify(next), nextText);
  });
});

describe('inclusion: unevaluated* sees what the keywords beside it evaluate', () => {
  // Each pair keeps the same unevaluated* keyword and changes only which members the keywords
  // beside it evaluate; a value valid on one side is rejected on the other (checked here with
  // an independent Ajv), so neither direction may be answered compatible.
  const S = 'https://json-schema.org/draft/2020-12/schema';
  const table: [string, Schema, Schema, unknown][] = [
    [
      'a then that names another property',
      {
        properties: { k: {} },
        if: { required: ['k'] },
        then: { properties: { x: {} } },
        unevaluatedProperties: false,
      },
      {
        properties: { k: {} },
        if: { required: ['k'] },
        then: { properties: { y: {} } },
        unevaluatedProperties: false,
      },
      { k: 1, x: 1 },
    ],
    [
      'an anyOf branch that names another property',
      { anyOf: [{ properties: { x: {} } }, { type: 'object' }], unevaluatedProperties: false },
      { anyOf: [{ properties: { y: {} } }, { type: 'object' }], unevaluatedProperties: false },
      { x: 1 },
    ],
    [
      'a referenced definition that names another property',
      {
        $defs: { A: { properties: { x: {} } } },
        $ref: '#/$defs/A',
        unevaluatedProperties: { type: 'string' },
      },
      {
        $defs: { A: { properties: { y: {} } } },
        $ref: '#/$defs/A',
        unevaluatedProperties: { type: 'string' },
      },
      { x: 1 },
    ],
    [
      'a dependent schema that names another property',
      {
        properties: { k: {} },
        dependentSchemas: { k: { properties: { x: {} } } },
        unevaluatedProperties: false,
      },
      {
        properties: { k: {} },
        dependentSchemas: { k: { properties: { y: {} } } },
        unevaluatedProperties: false,
      },
      { k: 1, x: 1 },
    ],
    [
      'contains that matches other items',
      { contains: { type: 'string' }, unevaluatedItems: false },
      { contains: { type: 'number' }, minContains: 0, unevaluatedItems: false },
      ['a'],
    ],
    [
      'a longer tuple',
      { prefixItems: [{}, {}], unevaluatedItems: false },
      { prefixItems: [{}], unevaluatedItems: false },
      [1, 2],
    ],
  ];
  for (const [name, a, b, value] of table) {
    const [base, head] = [
      { $schema: S, ...(a as object) },
      { $schema: S, ...(b as object) },
    ];
    it(`${name}: never compatible`, () => {
      assert.equal(independentValidator(base)(value), true);
      assert.equal(independentValidator(head)(value), false);
      const r = compareSchemas(base, head, 'input');
      assert.notEqual(r.verdict, 'compatible');
      assert.notEqual(r.verdict, 'identical');
      assertWitnesses(base, head, r.findings);
    });
  }
  it('a change beside it that moves no member it sees is still decided', () => {
    const base = { $schema: S, properties: { x: { type: 'string' } }, unevaluatedProperties: false };
    const head = {
      $schema: S,
      properties: { x: { type: ['string', 'null'] } },
      unevaluatedProperties: false,
    };
    assert.equal(compareSchemas(base, head, 'input').verdict, 'compatible');
  });
});

describe('inclusion: unevaluated* beside keywords that evaluate every member applies to nothing', () => {
  // Beside the node's own additionalProperties every name is evaluated, and beside items that
  // take every item past the tuple every item is, whatever the applicators beside change: the
  // keyword is read as absent, so the pair is decided where it was unknown. Each value is
  // checked with an independent Ajv: valid before, and valid after exactly where the verdict
  // for input says no break.
  const S = 'https://json-schema.org/draft/2020-12/schema';
  const S19 = 'https://json-schema.org/draft/2019-09/schema';
  const table: [string, Schema, Schema, [string, string], unknown[]][] = [
    [
      'an anyOf branch that stops naming a property, beside additionalProperties',
      {
        $schema: S,
        type: 'object',
        additionalProperties: {},
        anyOf: [{ properties: { x: { type: 'string' } } }, { type: 'object' }],
        unevaluatedProperties: false,
      },
      {
        $schema: S,
        type: 'object',
        additionalProperties: {},
        anyOf: [{}, { type: 'object' }],
        unevaluatedProperties: false,
      },
      ['compatible', 'compatible'],
      [{ x: 'a' }, { x: 1, y: 2 }, {}],
    ],
    [
      'a then that names another property, beside additionalProperties false',
      {
        $schema: S,
        properties: { k: {}, x: {}, y: {} },
        additionalProperties: false,
        if: { required: ['k'] },
        then: { properties: { x: {} } },
        unevaluatedProperties: false,
      },
      {
        $schema: S,
        properties: { k: {}, x: {}, y: {} },
        additionalProperties: false,
        if: { required: ['k'] },
        then: { properties: { y: {} } },
        unevaluatedProperties: false,
      },
      ['compatible', 'compatible'],
      [
        { k: 1, x: 1 },
        { k: 1, y: 1 },
        { k: 1, x: 1, y: 1 },
      ],
    ],
    [
      'contains narrowed, beside items',
      {
        $schema: S,
        type: 'array',
        items: { type: 'integer' },
        contains: { type: 'number' },
        unevaluatedItems: { type: 'integer' },
      },
      {
        $schema: S,
        type: 'array',
        items: { type: 'integer' },
        contains: { type: 'number', minimum: 1 },
        unevaluatedItems: { type: 'integer' },
      },
      ['breaking', 'compatible'],
      [[1], [2, 0]],
    ],
    [
      'contains changed, beside a 2019-09 items schema',
      { $schema: S19, items: { type: 'string' }, contains: { minLength: 1 }, unevaluatedItems: false },
      { $schema: S19, items: { type: 'string' }, contains: { minLength: 2 }, unevaluatedItems: false },
      ['breaking', 'compatible'],
      [['ab'], ['', 'abc']],
    ],
  ];
  for (const [name, base, head, [input, output], values] of table) {
    it(`${name}: decided, as the validator reads it`, () => {
      const [before, after] = [independentValidator(base), independentValidator(head)];
      for (const v of values) {
        assert.equal(before(v), true, JSON.stringify(v));
        if (input === 'compatible') assert.equal(after(v), true, JSON.stringify(v));
      }
      const [forward, back] = [compareSchemas(base, head, 'input'), compareSchemas(base, head, 'output')];
      assert.equal(forward.verdict, input);
      assert.equal(back.verdict, output);
      assertWitnesses(base, head, forward.findings);
      for (const r of [forward, back])
        assert.ok(!r.findings.some((f) => f.rule === 'unevaluated-sees-change'));
    });
  }
  it('a 2019-09 tuple without additionalItems leaves items unevaluated: still read', () => {
    const base = { $schema: S19, items: [{}], contains: { type: 'string' }, unevaluatedItems: false };
    const head = {
      $schema: S19,
      items: [{}],
      contains: { type: 'number' },
      minContains: 0,
      unevaluatedItems: false,
    };
    const r = compareSchemas(base, head, 'input');
    assert.ok(r.findings.some((f) => f.rule === 'unevaluated-sees-change'));
    assert.notEqual(r.verdict, 'compatible');
  });
});

describe('inclusion: unevaluated* beside applicators whose members widen', () => {
  // A member that accepts more and evaluates the same names (a `then` of the same `if`, an anyOf
  // branch, a dependent schema) leaves unevaluated* seeing no fewer members on any value the old
  // side accepts: decided. Each value is checked with an independent Ajv.
  const S = 'https://json-schema.org/draft/2020-12/schema';
  const node = (extra: object): Schema => ({
    $schema: S,
    type: 'object',
    properties: { a: { type: 'string' } },
    ...extra,
    unevaluatedProperties: false,
  });
  const table: [string, Schema, Schema, unknown[]][] = [
    [
      'a then of the same if',
      node({ if: { required: ['a'] }, then: { properties: { x: { type: 'boolean' } } } }),
      node({ if: { required: ['a'] }, then: { properties: { x: {} } } }),
      [{ a: '', x: true }, { a: '' }, {}],
    ],
    [
      'a dependent schema',
      node({ dependentSchemas: { a: { properties: { x: { maxLength: 2 } } } } }),
      node({ dependentSchemas: { a: { properties: { x: { maxLength: 3 } } } } }),
      [{ a: '', x: 'ab' }, { a: '' }],
    ],
  ];
  for (const [name, base, head, values] of table) {
    it(`${name}: compatible where it widens, and not compatible back`, () => {
      const [before, after] = [independentValidator(base), independentValidator(head)];
      for (const v of values) {
        assert.equal(before(v), true, JSON.stringify(v));
        assert.equal(after(v), true, JSON.stringify(v));
      }
      assert.equal(compareSchemas(base, head, 'input').verdict, 'compatible');
      assert.notEqual(compareSchemas(head, base, 'input').verdict, 'compatible');
    });
  }
  it('an anyOf branch that widens is not unevaluated-sees-change', () => {
    const base = node({ anyOf: [{ properties: { x: { type: 'string' } } }, { required: ['a'] }] });
    const head = node({
      anyOf: [{ properties: { x: { type: ['string', 'number'] } } }, { required: ['a'] }],
    });
    const rules = (x: Schema, y: Schema): string[] =>
      compareSchemas(x, y, 'input').findings.map((f) => f.rule);
    assert.ok(!rules(base, head).includes('unevaluated-sees-change'));
    assert.ok(rules(head, base).includes('unevaluated-sees-change'));
  });
  it('a then that narrows is a break the walk finds, with its witness', () => {
    // Without the conditional the node would accept less (x left to unevaluatedProperties), so
    // it cannot stand for the values that reach `then`: the narrowing is looked for, and found.
    const wide = node({ if: { required: ['a'] }, then: { properties: { x: {} } } });
    const narrow = node({ if: { required: ['a'] }, then: { properties: { x: { type: 'boolean' } } } });
    const r = compareSchemas(wide, narrow, 'input');
    assert.equal(r.verdict, 'breaking');
    assert.ok(r.findings.some((f) => f.rule === 'conditional-rejects-value' && f.witness !== undefined));
    assertWitnesses(wide, narrow, r.findings);
  });
  it('a branch within a branch that narrows evaluates less: never compatible', () => {
    // {x: "s"}: before, the inner branch holds and evaluates x; after, it fails, the other inner
    // branch holds, and x is left to unevaluatedProperties, which rejects it.
    const inner = (x: object): Schema =>
      node({ anyOf: [{ anyOf: [{ properties: { x } }, { type: 'object' }] }, { required: ['a'] }] });
    const [base, head] = [inner({ type: 'string' }), inner({ type: 'number' })];
    assert.equal(independentValidator(base)({ x: 's' }), true);
    assert.equal(independentValidator(head)({ x: 's' }), false);
    for (const [x, y] of [
      [base, head],
      [head, base],
    ] as const) {
      const r = compareSchemas(x, y, 'input');
      assert.notEqual(r.verdict, 'compatible');
      assertWitnesses(x, y, r.findings);
    }
  });
});

describe('inclusion: a definition that refers to a name its container does not hold', () => {
  // In the document `#/$defs/S` leads nowhere (S is defined inside T, not at the root), so the
  // validator cannot build it; read on its own T would hold S, and a verdict would follow.
  const doc = (s: Schema): Schema => ({
    $defs: { T: { $defs: { S: s }, not: { $ref: '#/$defs/S' } } },
    $ref: '#/$defs/T',
  });
  for (const direction of ['input', 'output'] as const)
    it(`is invalid, as the validator finds it (${direction})`, () => {
      const r = compareSchemas(doc({ type: 'string' }), doc({ type: 'string', minLength: 1 }), direction);
      assert.equal(r.verdict, 'unknown');
      assert.deepEqual(
        r.findings.map((f) => [f.rule, f.args?.error]),
        [['schema-invalid', "can't resolve reference #/$defs/S from id #"]],
      );
    });
});
