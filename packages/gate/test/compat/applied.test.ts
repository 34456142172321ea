import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asApplied } from '../../src/compat/applied.ts';
import type { Json, JsonObject, Schema } from '../../src/compat/index.ts';
import { refPointer } from '../../src/compat/pointer.ts';
import type { Dialect } from '../../src/compat/validator.ts';
import { independentValidator } from './helpers.ts';

const D20 = 'https://json-schema.org/draft/2020-12/schema';
const D19 = 'https://json-schema.org/draft/2019-09/schema';

/** A document, its dialect, and values on which Ajv must answer the same for it and its reading. */
const SAME_ANSWERS: [string, JsonObject, Dialect, Json[]][] = [
  ['nullable beside a type', { type: 'string', nullable: true }, '2020-12', ['a', null, 1]],
  ['nullable beside an enum', { type: 'string', nullable: true, enum: ['a'] }, '2020-12', ['a', null, 'b']],
  ['nullable inside not', { not: { type: 'string', nullable: true } }, '2020-12', ['a', null, 1]],
  ['nullable false', { type: 'integer', nullable: false }, '2020-12', [1, null]],
  [
    'nullable through $ref',
    { properties: { a: { $ref: '#/$defs/N' } }, $defs: { N: { type: 'number', nullable: true } } },
    '2020-12',
    [{ a: null }, { a: 1 }, { a: 'x' }],
  ],
  [
    'a reference by $anchor',
    { properties: { a: { $ref: '#Item' } }, $defs: { I: { $anchor: 'Item', type: 'string' } } },
    '2020-12',
    [{ a: 'x' }, { a: 1 }],
  ],
  [
    'a reference by $dynamicAnchor name',
    { properties: { a: { $ref: '#Item' } }, $defs: { I: { $dynamicAnchor: 'Item', type: 'string' } } },
    '2020-12',
    [{ a: 'x' }, { a: 1 }],
  ],
  [
    '$dynamicRef to the root that carries its anchor',
    {
      $schema: D20,
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { v: { type: 'string' }, kids: { items: { $dynamicRef: '#node' } } },
      $defs: { Leaf: { $dynamicAnchor: 'node', type: 'number' } },
    },
    '2020-12',
    [{ kids: [{ v: 'a' }] }, { kids: [1] }, { kids: [{ v: 1 }] }],
  ],
  [
    '$dynamicRef whose anchor no compiled schema carries',
    {
      $schema: D20,
      type: 'object',
      properties: { v: { type: 'string' }, kids: { items: { $dynamicRef: '#node' } } },
      $defs: { Leaf: { $dynamicAnchor: 'node', type: 'number' } },
    },
    '2020-12',
    [{ kids: [{ v: 'a' }] }, { kids: [1] }, { kids: [{ v: 1 }] }],
  ],
  [
    '$recursiveRef to a recursive root',
    {
      $schema: D19,
      $recursiveAnchor: true,
      type: 'object',
      properties: { v: { type: 'string' }, kids: { items: { $recursiveRef: '#' } } },
    },
    '2019-09',
    [{ kids: [{ v: 'a' }] }, { kids: [1] }, { kids: [{ v: 1 }] }],
  ],
];

describe('a document as Ajv applies it (applied.ts)', () => {
  for (const [name, doc, dialect, values] of SAME_ANSWERS)
    it(`${name}: Ajv answers the same for the reading, and it holds no keyword the walk cannot read`, () => {
      const { schema, dynamic } = asApplied(doc, dialect);
      assert.equal(dynamic, undefined);
      const text = JSON.stringify(schema);
      for (const k of ['nullable', '$dynamicRef', '$recursiveRef', '"$ref":"#I'])
        assert.ok(!text.includes(k), k);
      const [was, now] = [independentValidator(doc), independentValidator(schema)];
      for (const v of values) assert.equal(now(v), was(v), JSON.stringify(v));
    });

  it('nullable without type, or false beside null, is left for the compile to refuse', () => {
    for (const doc of [{ nullable: true }, { type: ['string', 'null'], nullable: false }] as JsonObject[])
      assert.deepEqual(asApplied(doc, '2020-12').schema, doc);
  });

  it('a dynamic reference whose anchor a compiled schema carries is left, and named', () => {
    const doc: Schema = {
      $schema: D20,
      properties: { leaf: { $ref: '#/$defs/Leaf' }, kids: { items: { $dynamicRef: '#node' } } },
      $defs: { Leaf: { $dynamicAnchor: 'node', type: 'string' } },
    };
    const { dynamic } = asApplied(doc, '2020-12');
    assert.deepEqual(dynamic, { keyword: '$dynamicRef', ref: '#node', at: '/properties/kids/items' });
  });

  it('a dynamic reference inside a $ref target is left, and named (the target may be a function of its own)', () => {
    const doc: Schema = {
      $schema: D20,
      properties: { a: { $ref: '#/$defs/T' } },
      $defs: { T: { properties: { kids: { items: { $dynamicRef: '#node' } } } } },
    };
    assert.equal(asApplied(doc, '2020-12').dynamic?.at, '/$defs/T/properties/kids/items');
  });

  it('draft-07 has no dynamic references: they stay as written for the dialect reading to drop', () => {
    const doc: Schema = { properties: { a: { $dynamicRef: '#x' } } };
    assert.deepEqual(asApplied(doc, 'draft-07'), { schema: doc });
  });

  it('an anchor under a nested $id is not resolved (the $id scopes the name)', () => {
    const doc: Schema = {
      properties: { a: { $ref: '#Item' } },
      $defs: { I: { $id: 'https://example.com/i', $anchor: 'Item', type: 'string' } },
    };
    assert.equal((asApplied(doc, '2020-12').schema as JsonObject).properties !== undefined, true);
    assert.deepEqual(((asApplied(doc, '2020-12').schema as JsonObject).properties as JsonObject).a, {
      $ref: '#Item',
    });
  });
});

describe('references read token by token, as Ajv reads them (refPointer)', () => {
  const TABLE: [string, string | undefined][] = [
    ['#', ''],
    ['#/$defs/a~1b', '/$defs/a~1b'],
    ['#/$defs/a%2Fb', '/$defs/a~1b'],
    ['#/$defs/a%252Fb', '/$defs/a%2Fb'],
    ['#/$defs/a~0b', '/$defs/a~0b'],
    ['#/$defs/a%7E1b', '/$defs/a~1b'],
    ['#/%24defs/x', '/$defs/x'],
    ['#/$defs/a%20b', '/$defs/a b'],
    ['#/$defs/%', undefined],
    ['#Name', undefined],
    ['other.json#/a', undefined],
  ];
  for (const [ref, pointer] of TABLE)
    it(`${ref} → ${String(pointer)}`, () => assert.equal(refPointer(ref), pointer));

  it('each spelling leads where Ajv leads', () => {
    const defs = { 'a/b': { type: 'string' }, 'a%2Fb': { type: 'number' }, 'a~b': { type: 'boolean' } };
    for (const [ref, accepted] of [
      ['#/$defs/a%2Fb', 's'],
      ['#/$defs/a~1b', 's'],
      ['#/$defs/a%252Fb', 1],
      ['#/$defs/a~0b', true],
    ] as const) {
      const v = independentValidator({ $defs: defs, $ref: ref });
      assert.equal(v(accepted), true, ref);
      for (const other of ['s', 1, true].filter((x) => x !== accepted)) assert.equal(v(other), false, ref);
    }
  });
});
