import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { as2020, dialectSensitive, DIALECT_URI } from '../../src/compat/dialects.ts';
import { compareSchemas, type Json, type Schema } from '../../src/compat/index.ts';
import type { Dialect } from '../../src/compat/validator.ts';
import { independentValidator } from './helpers.ts';

/** Schemas whose keywords mean different things per dialect, and values that tell the readings apart. */
const TABLE: [string, Schema, Json[]][] = [
  ['dependencies (array)', { dependencies: { a: ['b'] } }, [{ a: 1 }, { a: 1, b: 2 }, {}]],
  ['dependencies (schema)', { dependencies: { a: { required: ['b'] } } }, [{ a: 1 }, { a: 1, b: 2 }]],
  ['dependentRequired', { dependentRequired: { a: ['b'] } }, [{ a: 1 }, { a: 1, b: 2 }]],
  ['dependentSchemas', { dependentSchemas: { a: { required: ['b'] } } }, [{ a: 1 }, { b: 1 }]],
  ['prefixItems', { prefixItems: [{ type: 'string' }], items: false }, [[1], ['a'], ['a', 'b'], []]],
  ['tuple items', { items: [{ type: 'string' }], additionalItems: false }, [[1], ['a'], ['a', 'b']]],
  ['tuple items, open', { items: [{ type: 'string' }] }, [[1], ['a', 2]]],
  [
    'additionalItems beside a schema',
    { items: { type: 'string' }, additionalItems: false },
    [['a', 'b'], [1]],
  ],
  ['minContains', { contains: { type: 'string' }, minContains: 2 }, [['a'], ['a', 'b'], [1]]],
  ['maxContains', { contains: { type: 'string' }, maxContains: 1 }, [['a', 'b'], ['a']]],
  ['unevaluatedProperties', { properties: { a: {} }, unevaluatedProperties: false }, [{ a: 1 }, { b: 1 }]],
  ['unevaluatedItems', { prefixItems: [{}], unevaluatedItems: false }, [[1], [1, 2]]],
  [
    'nested under properties and $defs',
    {
      properties: { t: { $ref: '#/$defs/T' } },
      $defs: { T: { items: [{ type: 'integer' }], additionalItems: { type: 'string' } } },
    },
    [{ t: [1, 'a'] }, { t: ['a'] }, { t: [1, 2] }],
  ],
];

const DIALECTS: Dialect[] = ['draft-07', '2019-09', '2020-12'];

describe('a schema rewritten as 2020-12 accepts what the validator accepts in its own dialect', () => {
  for (const [name, schema, values] of TABLE) {
    for (const dialect of DIALECTS) {
      // A tuple `items` is no 2020-12 schema at all: the comparison calls it invalid instead.
      if (dialect === '2020-12' && name.startsWith('tuple')) continue;
      if (dialect === '2020-12' && name.startsWith('nested')) continue;
      it(`${name}, written in ${dialect}`, () => {
        const own = independentValidator({ ...(schema as object), $schema: DIALECT_URI[dialect] });
        const rewritten = independentValidator(as2020(schema, dialect));
        for (const v of values) assert.equal(rewritten(v), own(v), JSON.stringify(v));
      });
    }
  }

  it('finds the keywords whose meaning depends on the dialect, and only those', () => {
    for (const [name, schema] of TABLE) assert.equal(dialectSensitive(schema), true, name);
    assert.equal(
      dialectSensitive({ type: 'object', properties: { items: { type: 'array', items: {} } } }),
      false,
    );
  });
});

describe('a break found in the one reading left says which reading it holds in', () => {
  // Without $schema the pair is read both ways. Read as 2020-12 the old tuple is not a valid
  // schema, so no such reader used it and only the draft-07 reading is judged: its witnesses
  // (an array of one string) hold there and not for a 2020-12 validator, which is said.
  const old: Schema = { type: 'array', items: [{ type: 'string' }] };
  const next: Schema = { type: 'array', items: { type: 'string' }, minItems: 2 };
  it('names the reading and why the other was left out', () => {
    const r = compareSchemas(old, next, 'input');
    assert.equal(r.verdict, 'breaking');
    const breaks = r.findings.filter((f) => f.verdict === 'breaking');
    assert.ok(breaks.length > 0);
    for (const f of breaks) {
      assert.match(f.reason ?? '', /read as draft-07; .* read as 2020-12 the old schema is not valid/);
      assert.equal(
        independentValidator({ ...(old as object), $schema: DIALECT_URI['draft-07'] })(f.witness),
        true,
      );
    }
  });
  it('declared in its dialect, the same break needs no such word', () => {
    const declared = (s: Schema): Schema => ({ ...(s as object), $schema: DIALECT_URI['draft-07'] });
    const r = compareSchemas(declared(old), declared(next), 'input');
    assert.equal(r.verdict, 'breaking');
    assert.ok(r.findings.every((f) => f.reason === undefined));
  });
});

describe('a definition that names another dialect is read as Ajv reads it: in its document’s', () => {
  // Only a document's root may declare $schema. Ajv, as the gate and the MCP SDK set it up,
  // builds such a document and reads the definition by the document's dialect, its $schema a
  // string like any other; the gate judges the pair the same way.
  const within = (dialect: Dialect, inner: Dialect, extra: object = {}): Schema => ({
    $schema: DIALECT_URI[dialect],
    type: 'object',
    properties: { v: { $ref: '#/$defs/T' } },
    $defs: { T: { $schema: DIALECT_URI[inner], type: 'object', properties: { a: {}, b: {} }, ...extra } },
  });
  for (const [dialect, inner] of [
    ['2020-12', 'draft-07'],
    ['draft-07', '2020-12'],
    ['2019-09', 'draft-07'],
  ] as const) {
    it(`a ${inner} definition in a ${dialect} document: a required name added breaks`, () => {
      const [old, next] = [within(dialect, inner), within(dialect, inner, { required: ['a'] })];
      const r = compareSchemas(old, next, 'input');
      assert.equal(r.verdict, 'breaking');
      for (const f of r.findings.filter((x) => x.verdict === 'breaking')) {
        assert.equal(independentValidator(old)(f.witness), true);
        assert.equal(independentValidator(next)(f.witness), false);
      }
    });
    // dependentRequired is a keyword of 2019-09 and later only: what it does follows the
    // document, whatever the definition declares.
    const keyword = dialect === 'draft-07' ? 'compatible' : 'breaking';
    it(`a ${inner} definition in a ${dialect} document: dependentRequired added is ${keyword}`, () => {
      const [old, next] = [
        within(dialect, inner),
        within(dialect, inner, { dependentRequired: { a: ['b'] } }),
      ];
      assert.equal(independentValidator(old)({ v: { a: 1 } }), true);
      assert.equal(independentValidator(next)({ v: { a: 1 } }), dialect === 'draft-07');
      assert.equal(compareSchemas(old, next, 'input').verdict, keyword);
    });
  }
});
