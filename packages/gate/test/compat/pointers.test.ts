import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  compareManifests,
  compareSchemas,
  renderMessage,
  type Direction,
  type Finding,
  type Schema,
} from '../../src/compat/index.ts';
import { escapeSegment, parsePointer, resolvePointer, toPointer } from '../../src/compat/pointer.ts';
import { specPairs } from '../../bench/compat-spec.ts';
import { FIXTURES, readJson } from './helpers.ts';
import { corpus, mutate } from './mutations.ts';

/** Asserts that every finding's pointer leads to something in the schema it names (the new one). */
function assertResolves(findings: readonly Finding[], newSchema: unknown, label: string): number {
  for (const f of findings) {
    assert.ok(
      resolvePointer(newSchema, f.pointer).found,
      `${label}: ${f.rule} points at ${JSON.stringify(f.pointer)}, which is not in the new schema`,
    );
    // Bounds, patterns and formats are never null: a null there would stand for an absent keyword.
    if (!/const|default|annotation|title|header/.test(f.rule))
      for (const k of ['old', 'new'])
        assert.notEqual(f.args[k], null, `${label}: ${f.rule} says null for absent`);
  }
  return findings.length;
}

describe('JSON Pointer (RFC 6901)', () => {
  it('resolves the examples of section 5', () => {
    const doc = {
      foo: ['bar', 'baz'],
      '': 0,
      'a/b': 1,
      'c%d': 2,
      'e^f': 3,
      'g|h': 4,
      'i\\j': 5,
      'k"l': 6,
      ' ': 7,
      'm~n': 8,
    };
    const cases: [string, unknown][] = [
      ['', doc],
      ['/foo', ['bar', 'baz']],
      ['/foo/0', 'bar'],
      ['/', 0],
      ['/a~1b', 1],
      ['/c%d', 2],
      ['/e^f', 3],
      ['/g|h', 4],
      ['/i\\j', 5],
      ['/k"l', 6],
      ['/ ', 7],
      ['/m~0n', 8],
    ];
    for (const [pointer, value] of cases)
      assert.deepEqual(resolvePointer(doc, pointer), { found: true, value });
    for (const nowhere of ['/foo/2', '/foo/01', '/foo/-', '/nope', 'foo', '/a/b'])
      assert.equal(resolvePointer(doc, nowhere).found, false, nowhere);
  });

  it('escapes ~ before / and round-trips any key', () => {
    assert.equal(escapeSegment('~1'), '~01');
    assert.equal(toPointer(['a/b', 'm~n', 0]), '/a~1b/m~0n/0');
    fc.assert(
      fc.property(fc.array(fc.string()), (keys) => assert.deepEqual(parsePointer(toPointer(keys)), keys)),
    );
  });

  it('a property named with / and ~ is escaped alike by every rule that names it', () => {
    const old = { type: 'object', properties: { 'a/b': { type: 'string' }, 'm~n': { type: 'number' } } };
    const now = {
      type: 'object',
      properties: { 'a/b': { type: 'string', maxLength: 3 }, 'm~n': { type: 'integer' } },
      required: ['a/b'],
    };
    const r = compareSchemas(old, now, 'input');
    assert.deepEqual(r.findings.map((f) => f.pointer).sort(), [
      '/properties/a~1b/maxLength',
      '/properties/m~0n/type',
      '/required',
    ]);
    assertResolves(r.findings, now, 'escaping');
  });

  it('an absent bound reads as absent, never as null', () => {
    const r = compareSchemas({ type: 'string' }, { type: 'string', maxLength: 4 }, 'input');
    assert.equal(renderMessage(r.findings[0] as Finding), 'maxLength lowered from absent to 4');
    const m = compareSchemas({ type: 'number', multipleOf: 2 }, { type: 'number' }, 'input');
    assert.equal(
      renderMessage(m.findings[0] as Finding),
      'multipleOf changed from 2 to absent: more numbers pass',
    );
  });
});

describe('every finding points at something in the schema it names', () => {
  it('the rule fixture corpus', () => {
    const dir = path.join(FIXTURES, 'rules');
    let n = 0;
    for (const name of fs.readdirSync(dir)) {
      const base = readJson<Schema>(path.join(dir, name, 'base.json'));
      const head = readJson<Schema>(path.join(dir, name, 'head.json'));
      const { direction, strictOpenObjects } = readJson<{
        direction: Direction;
        strictOpenObjects?: boolean;
      }>(path.join(dir, name, 'expected.json'));
      for (const strict of [strictOpenObjects, true])
        n += assertResolves(
          compareSchemas(base, head, direction, { strictOpenObjects: strict }).findings,
          head,
          name,
        );
      // And the same pair read the other way round, in the other direction.
      const other: Direction = direction === 'input' ? 'output' : 'input';
      n += assertResolves(compareSchemas(head, base, other).findings, base, `${name} reversed`);
    }
    assert.ok(n > 150, `${n} findings checked`);
  });

  it('the published MCP specification revisions, definition by definition', () => {
    let n = 0;
    for (const p of specPairs())
      n += assertResolves(compareSchemas(p.old, p.new, 'input').findings, p.new, p.name);
    assert.ok(n > 100, `${n} findings checked`);
  });

  it('mutations of real schemas (recursive ones included), both directions', () => {
    const schemas = corpus();
    let n = 0;
    fc.assert(
      fc.property(fc.nat(schemas.length - 1), fc.nat(), fc.nat(), fc.nat(), (i, where, kind, amount) => {
        const before = schemas[i] as Schema & object;
        const after = mutate(before, where, kind, amount);
        for (const direction of ['input', 'output'] as const) {
          n += assertResolves(
            compareSchemas(before, after, direction, { strictOpenObjects: true }).findings,
            after,
            'mutation',
          );
          n += assertResolves(compareSchemas(after, before, direction).findings, before, 'mutation reversed');
        }
      }),
      { numRuns: 60, seed: 5 },
    );
    assert.ok(n > 60, `${n} findings checked`);
  });

  it('manifests: pointers lead into the tool definition, a removed annotation to its parent', () => {
    const old = [
      { name: 't', description: 'x', annotations: { title: 'T', 'x/y': 1 }, inputSchema: { type: 'object' } },
      { name: 'gone', inputSchema: { type: 'object' } },
    ];
    const now = [
      {
        name: 't',
        description: 'y',
        annotations: {},
        inputSchema: { type: 'object', properties: { 'p~q': { type: 'string' } } },
      },
    ];
    const r = compareManifests(old, now);
    for (const t of r.tools) {
      const doc = now.find((x) => x.name === t.name) ?? old.find((x) => x.name === t.name);
      assertResolves(t.findings, doc, t.name);
    }
    const pointers = r.tools.flatMap((t) => t.findings.map((f) => f.pointer)).sort();
    assert.deepEqual(pointers, [
      '',
      '/annotations',
      '/annotations',
      '/description',
      '/inputSchema/properties/p~0q',
    ]);
  });
});

describe('findings of rewritten unevaluatedProperties / unevaluatedItems point at the keyword', () => {
  // The gate reads the common shapes of unevaluated* as additionalProperties / items; a finding
  // must still lead to what the schema says, not to the parent that holds the keyword.
  const S2019 = 'https://json-schema.org/draft/2019-09/schema';
  const obj = (extra: object): Schema => ({
    type: 'object',
    properties: { a: { type: 'string' } },
    ...extra,
  });
  const cases: [string, Schema, Schema, Direction, string][] = [
    ['closed', obj({}), obj({ unevaluatedProperties: false }), 'input', '/unevaluatedProperties'],
    [
      'widened (input)',
      obj({ unevaluatedProperties: false }),
      obj({ unevaluatedProperties: { type: 'string' } }),
      'input',
      '/unevaluatedProperties',
    ],
    [
      'its schema narrowed',
      obj({ unevaluatedProperties: { type: ['string', 'number'] } }),
      obj({ unevaluatedProperties: { type: 'string' } }),
      'input',
      '/unevaluatedProperties/type',
    ],
    [
      'a property under it',
      obj({ unevaluatedProperties: { type: 'object', properties: { q: { type: 'string' } } } }),
      obj({ unevaluatedProperties: { type: 'object', properties: { q: { type: 'string', maxLength: 3 } } } }),
      'input',
      '/unevaluatedProperties/properties/q/maxLength',
    ],
    [
      'output, its schema widened',
      obj({ unevaluatedProperties: { type: 'string' } }),
      obj({ unevaluatedProperties: { type: ['string', 'number'] } }),
      'output',
      '/unevaluatedProperties/type',
    ],
    [
      'through a $ref into $defs',
      { type: 'object', properties: { x: { $ref: '#/$defs/X' } }, $defs: { X: obj({}) } },
      {
        type: 'object',
        properties: { x: { $ref: '#/$defs/X' } },
        $defs: { X: obj({ unevaluatedProperties: false }) },
      },
      'input',
      '/$defs/X/unevaluatedProperties',
    ],
    [
      'items closed after prefixItems',
      { type: 'array', prefixItems: [{ type: 'string' }] },
      { type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: false },
      'input',
      '/unevaluatedItems',
    ],
    [
      'an item under it',
      {
        type: 'array',
        prefixItems: [{ type: 'string' }, { type: 'string' }],
        unevaluatedItems: { type: 'string' },
      },
      {
        type: 'array',
        prefixItems: [{ type: 'string' }],
        unevaluatedItems: { type: 'string', maxLength: 2 },
      },
      'input',
      '/unevaluatedItems/maxLength',
    ],
    [
      '2019-09, beside an items array (read as additionalItems)',
      { $schema: S2019, type: 'array', items: [{ type: 'string' }] },
      { $schema: S2019, type: 'array', items: [{ type: 'string' }], unevaluatedItems: { type: 'number' } },
      'input',
      '/unevaluatedItems/type',
    ],
    [
      '2019-09, alone (read as items)',
      { $schema: S2019, type: 'array' },
      { $schema: S2019, type: 'array', unevaluatedItems: { type: 'number' } },
      'input',
      '/unevaluatedItems/type',
    ],
  ];
  // Declared 2020-12 unless the case names its dialect: without $schema these keywords are
  // ambiguous (draft-07 ignores them) and the comparison says so instead.
  const declared = (s: Schema): Schema =>
    typeof s === 'object' && !('$schema' in s)
      ? { $schema: 'https://json-schema.org/draft/2020-12/schema', ...s }
      : s;
  for (const [name, oldAny, nowAny, direction, pointer] of cases)
    it(name, () => {
      const old = declared(oldAny),
        now = declared(nowAny);
      const r = compareSchemas(old, now, direction);
      assert.ok(r.findings.length > 0, 'the change is seen');
      assertResolves(r.findings, now, name);
      assert.deepEqual(
        r.findings.map((f) => f.pointer),
        r.findings.map(() => pointer),
        `${name}: ${r.findings.map((f) => `${f.rule} at ${JSON.stringify(f.pointer)}`).join(', ')}`,
      );
    });
});

describe('findings of keywords folded in from allOf branches point where the keyword is written', () => {
  // The walk folds allOf branches (a $ref beside other keywords is one) into their node; a finding
  // about a keyword that came from a branch must lead to that branch, not to the node that holds it.
  const defs = (count: Schema): Record<string, Schema> => ({
    R: { type: 'object', properties: { count } },
  });
  const pair = (make: (count: Schema) => Schema, from: Schema, to: Schema): [Schema, Schema] => [
    make(from),
    make(to),
  ];
  const cases: [string, [Schema, Schema], Direction, string][] = [
    [
      'a $ref beside type, its target narrowed',
      pair((c) => ({ type: 'object', $ref: '#/$defs/R', $defs: defs(c) as never }), {}, { type: 'string' }),
      'input',
      '/$defs/R/properties/count/type',
    ],
    [
      'a $ref beside type at the end of a chain',
      pair(
        (c) => ({
          type: 'object',
          $ref: '#/$defs/Hop',
          $defs: { ...defs(c), Hop: { $ref: '#/$defs/R' } } as never,
        }),
        {},
        { type: 'string' },
      ),
      'input',
      '/$defs/R/properties/count/type',
    ],
    [
      'an allOf of one reference beside a description, under a property',
      pair(
        (c) => ({
          type: 'object',
          properties: { opts: { allOf: [{ $ref: '#/$defs/R' }], description: 'options' } },
          $defs: defs(c) as never,
        }),
        { maxLength: 3 },
        { maxLength: 2 },
      ),
      'input',
      '/$defs/R/properties/count/maxLength',
    ],
    [
      'a conjunct written in place',
      pair(
        (c) => ({ allOf: [{ type: 'object', properties: { count: c } }, { minProperties: 0 }] as Schema[] }),
        { maxLength: 3 },
        { maxLength: 2 },
      ),
      'input',
      '/allOf/0/properties/count/maxLength',
    ],
    [
      'a conjunct of a conjunct',
      pair(
        (c) => ({
          allOf: [{ allOf: [{ minProperties: 0 }, { properties: { count: c } }] as Schema[] }],
          type: 'object',
        }),
        { maxLength: 3 },
        { maxLength: 2 },
      ),
      'input',
      '/allOf/0/allOf/1/properties/count/maxLength',
    ],
    [
      'a conjunct left unfolded at an inner level',
      pair(
        (c) => ({
          type: 'string',
          allOf: [{ allOf: [{ maxLength: 5 }, c] }, { minLength: 1 }, { minLength: 2 }] as Schema[],
        }),
        { maxLength: 4 },
        { maxLength: 3 },
      ),
      'input',
      '/allOf/0/allOf/1/maxLength',
    ],
    [
      'output: a $ref beside type, its target widened',
      pair((c) => ({ type: 'object', $ref: '#/$defs/R', $defs: defs(c) as never }), { type: 'string' }, {}),
      'output',
      '/$defs/R/properties/count',
    ],
  ];
  for (const [name, [old, now], direction, pointer] of cases)
    it(name, () => {
      const r = compareSchemas(old, now, direction);
      const changes = r.findings.filter(
        (f) => f.verdict !== 'compatible' || f.rule !== 'conditional-implied',
      );
      assert.ok(changes.length > 0, 'the change is seen');
      assertResolves(r.findings, now, name);
      assert.deepEqual(
        changes.map((f) => f.pointer),
        changes.map(() => pointer),
        `${name}: ${r.findings.map((f) => `${f.rule} at ${JSON.stringify(f.pointer)}`).join(', ')}`,
      );
    });
});
