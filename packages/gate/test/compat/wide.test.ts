import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ajv } from 'ajv';
import { type ErrorObject } from 'ajv';
import { BUILDS, KEYWORDS, type BuildCheck, type Dialect } from '../../src/compat/keywords.ts';
import type { Json, JsonObject } from '../../src/compat/types.ts';
import { buildOracle, compileSchema, explainWith, schemaProblem } from '../../src/compat/validator.ts';
import { buildsApart, splitWide, WIDE_ENOUGH } from '../../src/compat/wide.ts';
import { oracleAjv } from '../../fuzz/oracle.ts';
import { Rng } from '../../fuzz/prng.ts';

// A wide object is handed to the validator as a shell and leaves built apart (wide.ts). These
// hold it to Ajv itself: each keyword's build against the table that says it cannot fail, and
// wide documents' answers, errors and refusals against Ajv building the whole document.

const META: Record<Dialect, string> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};
const DIALECTS = Object.keys(META) as Dialect[];

/** Ajv as the gate configures it (all errors, with messages), building the whole document: the reference. */
function reference(dialect: Dialect, messages = true): Ajv {
  return oracleAjv(dialect, { allErrors: true, messages });
}

/** Whether Ajv builds a schema, and its error when it does not. */
function builds(dialect: Dialect, schema: Json): { ok: true } | { ok: false; error: string } {
  try {
    reference(dialect).compile(schema as object);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: (err as Error).message.split('\n')[0] ?? '' };
  }
}

/** Edge values of each keyword, valid and not by the meta-schemas: those it refuses are skipped. */
const EDGES: Record<string, Json[]> = {
  definitions: [{}, { a: { type: 'string' } }, { a: { pattern: '[' } }],
  title: ['', 'x'],
  description: ['', 'y'],
  default: [null, {}, []],
  examples: [[], [1, 'a']],
  $comment: ['', 'note'],
  deprecated: [true, false],
  readOnly: [true, false],
  writeOnly: [true, false],
  contentMediaType: ['application/json', ''],
  contentEncoding: ['base64', ''],
  contentSchema: [true, false, { type: 'object' }],
  'x-mcp-header': ['X-Region', '', 5, null, ['a']],
  properties: [{}, { a: true }, { a: { type: 'string' } }, { constructor: false }, { a: { enum: [] } }],
  patternProperties: [
    {},
    { '^a': true },
    { '[': true },
    { '\\-': {} },
    { '\\p{L}': false },
    { '(?<n>a)': true },
  ],
  additionalProperties: [true, false, { type: 'string' }, { pattern: '(' }],
  propertyNames: [true, false, { pattern: '^a' }, { maxLength: 3 }, { pattern: '\\' }],
  dependentSchemas: [{}, { a: false }, { a: { required: ['b'] } }],
  dependencies: [{}, { a: ['b'] }, { a: { required: ['b'] } }, { a: [] }, { a: true }],
  unevaluatedProperties: [false, true, { type: 'string' }],
  items: [true, false, { type: 'string' }, [], [{ type: 'string' }, true]],
  prefixItems: [[], [true, { type: 'string' }]],
  additionalItems: [true, false, { type: 'string' }],
  contains: [true, false, { const: 1 }],
  unevaluatedItems: [false, true],
  allOf: [[true], [false, { type: 'string' }]],
  anyOf: [[true], [false, { type: 'string' }]],
  oneOf: [[true], [false, { type: 'string' }], [{ enum: [] }]],
  not: [true, false, { type: 'string' }],
  if: [true, false, { type: 'string' }],
  then: [true, false, { type: 'string' }],
  else: [true, false, { type: 'string' }],
  type: ['string', 'null', 'integer', ['string', 'null'], ['object', 'array'], [], 'strin'],
  enum: [[], [null], [1, '1'], [{}, []], ['a', 'a']],
  const: [null, {}, [], 1e308, -0, '\u2028', 'x'],
  format: ['email', 'date-time', 'int32', 'regex', 'no-such-format', '', 'uri-template'],
  required: [[], ['a'], ['a', 'a'], ['__proto__', 'constructor']],
  minProperties: [0, 1, 1e300],
  maxProperties: [0, 2 ** 53],
  dependentRequired: [{}, { a: [] }, { a: ['b', 'b'] }],
  minItems: [0, 1e300],
  maxItems: [0, 2 ** 53],
  uniqueItems: [true, false],
  minContains: [0, 2],
  maxContains: [0, 1],
  minLength: [0, 1, 1e300],
  maxLength: [0, 2 ** 53],
  pattern: [
    '',
    '^a$',
    '[',
    '\\p{L}+',
    '\\-',
    '{',
    'a{2,1}',
    '(?<n>a)\\k<n>',
    '(?<=a)b',
    '\\u{1F600}',
    '[\\w-]',
    '\\d{0,9999}',
    ']',
    '\\c',
  ],
  minimum: [0, -1e308, 1e-300, 1.5],
  maximum: [0, 1e308],
  exclusiveMinimum: [0, -1.5],
  exclusiveMaximum: [0, 2 ** 60],
  multipleOf: [1, 0.01, 1e-300, 1e308],
  nullable: [true, false, 'yes', null],
  discriminator: [{ propertyName: 'kind' }, {}],
};

/** Keywords beside which a keyword's build is checked too (nullable is read beside type). */
const BESIDE: Record<string, JsonObject[]> = {
  nullable: [{}, { type: 'string' }, { type: 'null' }, { type: ['string', 'null'] }, { type: [] }],
  type: [{}, { nullable: true }, { nullable: false }],
  then: [{}, { if: { type: 'string' } }],
  maxContains: [{}, { contains: { type: 'string' } }],
  additionalItems: [{}, { items: [true] }],
};

describe('the build table (BUILDS) against Ajv', () => {
  it('names every keyword of the keyword table, and only those', () => {
    assert.deepEqual(Object.keys(BUILDS).sort(), Object.keys(KEYWORDS).sort());
  });

  it('has edge values for every keyword it lets a leaf hold', () => {
    const missing = Object.entries(BUILDS)
      .filter(([k, check]) => check !== 'places' && EDGES[k] === undefined)
      .map(([k]) => k);
    assert.deepEqual(missing, []);
  });

  it('knows every keyword the validator builds, but `id`, which it refuses', () => {
    for (const dialect of DIALECTS) {
      const oracle = buildOracle(dialect);
      const candidates = new Set([...Object.keys(KEYWORDS), 'id', 'nullable', 'x-mcp-header', 'x-other']);
      for (const k of candidates)
        if (oracle.knows(k) && !Object.hasOwn(BUILDS, k)) assert.equal(k, 'id', `${dialect}: ${k}`);
      assert.ok(oracle.knows('id'));
      assert.equal(builds(dialect, { id: 'x' }).ok, false);
      assert.equal(oracle.knows('x-other'), false);
    }
  });

  // For every dialect, keyword, edge value and sibling set the meta-schema accepts: a leaf the
  // table lets be built apart is one Ajv builds, in its document and alone. Where the table asks
  // a check (a pattern, an enum, nullable), Ajv fails exactly when the check does.
  it('never lets a leaf be built apart that Ajv refuses, and its checks are Ajv’s', () => {
    const refusedByCheck = new Map<BuildCheck, number>();
    let cases = 0;
    for (const dialect of DIALECTS) {
      const oracle = buildOracle(dialect);
      for (const [keyword, values] of Object.entries(EDGES))
        for (const beside of BESIDE[keyword] ?? [{}])
          for (const value of values) {
            const leaf: JsonObject = { ...beside, [keyword]: value };
            const doc: JsonObject = { $schema: META[dialect], type: 'object', properties: { a: leaf } };
            if (schemaProblem(doc) !== undefined) continue;
            cases++;
            const apart = buildsApart(leaf, oracle);
            const inDocument = builds(dialect, doc);
            const alone = builds(dialect, leaf);
            const what = `${dialect} ${JSON.stringify(leaf)}`;
            if (apart) {
              assert.ok(inDocument.ok, `${what}: moved, but Ajv refuses the document`);
              assert.ok(alone.ok, `${what}: moved, but Ajv refuses it alone`);
            }
            const check = BUILDS[keyword] as BuildCheck;
            if (oracle.knows(keyword) && check !== 'builds' && check !== 'may-fail' && check !== 'places') {
              // Ajv compiles no pattern of `patternProperties` whose schemas are all `true` (before
              // 2019-09): the check keeps such a leaf in its document, which costs time only.
              if (check !== 'regex-keys')
                assert.equal(apart, inDocument.ok, `${what}: the ${check} check is not Ajv's`);
              if (!inDocument.ok) refusedByCheck.set(check, (refusedByCheck.get(check) ?? 0) + 1);
            }
          }
    }
    assert.ok(cases > 500, `${cases} cases`);
    // Each check turned some valid value away, as Ajv did: none of them is vacuous.
    for (const check of ['regex', 'regex-keys', 'non-empty', 'nullable', 'string'] as const)
      assert.ok((refusedByCheck.get(check) ?? 0) > 0, `no value refused by the ${check} check`);
  });

  it('keeps every leaf holding a `$` keyword (but $comment) in its document', () => {
    const oracle = buildOracle('2020-12');
    const leaves: Json[] = [
      { $ref: '#/$defs/a' },
      { items: { $id: 'x' } },
      { enum: [{ $ref: 'data, not a schema' }] },
      { $anchor: 'a' },
      { $async: true },
      { allOf: [{ $dynamicRef: '#a' }] },
    ];
    for (const leaf of leaves) assert.equal(buildsApart(leaf, oracle), false, JSON.stringify(leaf));
    assert.equal(buildsApart({ $comment: 'x', type: 'string' }, oracle), true);
  });
});

const LEAVES: Json[] = [
  { type: 'string' },
  { type: 'string', maxLength: 3 },
  { type: 'string', pattern: '^[a-z]+$' },
  { type: 'string', format: 'email' },
  { type: 'string', format: 'no-such-format' },
  { type: ['string', 'null'], minLength: 1 },
  { type: 'string', nullable: true },
  { type: 'integer', minimum: 0, multipleOf: 2 },
  { type: 'number', exclusiveMaximum: 10 },
  { type: 'boolean' },
  { enum: ['a', 1, null] },
  { const: { k: [1] } },
  { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
  { type: 'array', contains: { const: 1 } },
  { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'], additionalProperties: false },
  { type: 'object', patternProperties: { '^n': { type: 'number' } }, propertyNames: { maxLength: 3 } },
  { anyOf: [{ type: 'string' }, { type: 'integer' }] },
  { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 5 }] },
  { not: { type: 'null' } },
  { if: { type: 'string' }, then: { minLength: 2 }, else: { type: 'integer' } },
  { title: 'annotated only', 'x-extra': { note: '$ref' } },
  {},
  true,
  false,
  // Kept in the shell: a reference into the definitions, a keyword Ajv may fail on (whose
  // `unevaluated` keeps the whole document whole, now and then).
  { $ref: '#/$defs/word' },
  { type: 'string', discriminator: { propertyName: 'kind' } },
];
const STAYING = 2;

const NAMES = ['constructor', 'toString', 'a/b', 'c~d', '', 'ñ', '0', '10', 'has space', '__proto__'];

const VALUES: Json[] = [
  null,
  0,
  3,
  -1,
  1.5,
  6,
  'a',
  'ab',
  'abcd',
  'x@y.z',
  '',
  true,
  [],
  ['a'],
  ['a', 'a'],
  [1],
  {},
  { x: 1 },
  { x: 'no' },
  { n: 1, x: 2 },
];

/** A wide document: `width` properties of varied leaves, a few odd names, and varied siblings. */
function wideDoc(rng: () => number, dialect: Dialect, width: number): JsonObject {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
  const properties: JsonObject = {};
  // Half the documents have only leaves that move (their explanations are built apart too).
  const leaves = rng() < 0.5 ? LEAVES : LEAVES.slice(0, -STAYING);
  // Half the documents repeat a few leaves (built alone, once per content), half have every
  // leaf distinct (built in runs).
  const distinct = rng() < 0.5;
  for (let i = 0; i < width; i++) {
    const name = rng() < 0.04 ? pick(NAMES) : `p${i}`;
    const leaf = structuredClone(pick(leaves));
    if (distinct && typeof leaf === 'object' && leaf !== null && !Array.isArray(leaf)) leaf.title = name;
    Object.defineProperty(properties, name, {
      value: leaf,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const doc: JsonObject = { $schema: META[dialect], type: 'object', properties };
  doc[dialect === 'draft-07' ? 'definitions' : '$defs'] = { word: { type: 'string', minLength: 2 } };
  if (dialect === 'draft-07') for (const leaf of Object.values(properties)) retarget(leaf);
  if (rng() < 0.5) doc.required = ['p1', 'constructor'].slice(0, 1 + Math.floor(rng() * 2));
  if (rng() < 0.3) doc.additionalProperties = rng() < 0.5 ? false : { type: 'integer' };
  if (rng() < 0.3) doc.minProperties = 1;
  if (rng() < 0.3) doc.allOf = [{ not: { required: ['p3', 'p4'] } }];
  if (rng() < 0.2) doc.patternProperties = { '^p1': { type: 'string' } };
  if (rng() < 0.2) doc.propertyNames = { maxLength: 5 };
  if (rng() < 0.1) (properties as JsonObject).odd = { type: 'object', unevaluatedProperties: false };
  return doc;
}

function retarget(leaf: Json): void {
  if (typeof leaf === 'object' && leaf !== null && !Array.isArray(leaf) && leaf.$ref === '#/$defs/word')
    leaf.$ref = '#/definitions/word';
}

/** Values for a wide document: each property present now and then, with a value from VALUES. */
function valuesFor(rng: () => number, doc: JsonObject): Json[] {
  const names = Object.keys(doc.properties as JsonObject);
  const out: Json[] = [{}, [], null, 'text', 3];
  for (let n = 0; n < 30; n++) {
    const v: JsonObject = {};
    for (const name of names)
      if (rng() < 0.05)
        Object.defineProperty(v, name, {
          value: VALUES[Math.floor(rng() * VALUES.length)],
          enumerable: true,
          writable: true,
          configurable: true,
        });
    if (rng() < 0.2) v.extra = 1;
    out.push(v);
  }
  return out;
}

/** An error as the reader sees it (the fields Ajv sets without `verbose`). */
const shown = (e: ErrorObject): string =>
  JSON.stringify([e.instancePath, e.schemaPath, e.keyword, e.params, e.message ?? null]);

describe('a wide document, built as a shell and leaves', () => {
  it('is split only when enough leaves move and nothing can see them go', () => {
    const oracle = buildOracle('2020-12');
    const props = (n: number): JsonObject =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }]));
    const plain = { type: 'object', properties: props(WIDE_ENOUGH) };
    assert.ok(splitWide(plain, oracle));
    assert.equal(splitWide({ type: 'object', properties: props(WIDE_ENOUGH - 1) }, oracle), undefined);
    // Anything that reads a leaf where it stands, or the root whose shell lacks it, keeps the document whole.
    const blockers: [string, JsonObject][] = [
      ['a reference into a leaf', { allOf: [{ $ref: '#/properties/p1' }] }],
      ['one spelled with escapes', { allOf: [{ $ref: '#/%70roperties/p1' }] }],
      ['a reference to the root', { $defs: { a: { $ref: '#' } } }],
      ['an anchor at the root', { $anchor: 'r' }],
      ['a nested $id', { $defs: { a: { $id: 'a.json', type: 'string' } } }],
      ['unevaluatedProperties', { unevaluatedProperties: false }],
      ['a dynamic reference', { $defs: { a: { $dynamicRef: '#x' } } }],
      ['a reference at the root', { $ref: '#/$defs/a', $defs: { a: true } }],
    ];
    for (const [what, extra] of blockers)
      assert.equal(splitWide({ ...plain, ...extra }, oracle), undefined, what);
    const withLeafRef = { type: 'object', properties: props(WIDE_ENOUGH + 1) } as JsonObject;
    (withLeafRef.properties as JsonObject).p0 = { $ref: '#' };
    assert.equal(splitWide(withLeafRef, oracle), undefined, 'a leaf referring to the root');
    (withLeafRef.properties as JsonObject).p0 = { $ref: '#/$defs/a' };
    withLeafRef.$defs = { a: { type: 'integer' } };
    const split = splitWide(withLeafRef, oracle);
    assert.ok(split, 'a leaf referring into the definitions stays, the others move');
    assert.equal(split.runs.flat().length, WIDE_ENOUGH);
    assert.deepEqual((split.shell.properties as JsonObject).p0, { $ref: '#/$defs/a' });
    assert.equal(split.everyMember, false);
  });

  it('answers every value as Ajv building the whole document does, with the same errors', () => {
    const seeded = new Rng(7);
    const rng = (): number => seeded.next();
    let split = 0;
    let explained = 0;
    let alone = 0;
    for (let d = 0; d < 24; d++) {
      const dialect = DIALECTS[d % 3] as Dialect;
      const doc = wideDoc(rng, dialect, WIDE_ENOUGH + 40 + Math.floor(rng() * 60));
      const wide = splitWide(doc, buildOracle(dialect));
      if (wide) split++;
      if (wide?.alone) alone++;
      if (wide?.everyMember && doc.patternProperties === undefined) explained++;
      const whole = reference(dialect).compile(doc);
      const plain = compileSchema(doc);
      const messages = compileSchema(doc, true);
      for (const value of valuesFor(rng, doc)) {
        const want = whole(value);
        const what = `document ${d}, value ${JSON.stringify(value)}`;
        assert.equal(plain(value), want, what);
        assert.equal(messages(value), want, what);
        const wantErrors = (whole.errors ?? []).map(shown);
        // Messages: Ajv's errors, in Ajv's order, so an explanation names the same place.
        assert.deepEqual((messages.errors ?? []).map(shown), wantErrors, what);
        if (!want) assert.equal(explainWith(messages, value), explainWith(whole, value), what);
        // Plain: the same errors (in another order where a leaf that stays is listed between moved ones).
        assert.deepEqual(
          (plain.errors ?? []).map((e) => JSON.stringify([e.instancePath, e.schemaPath, e.keyword])).sort(),
          (whole.errors ?? []).map((e) => JSON.stringify([e.instancePath, e.schemaPath, e.keyword])).sort(),
          what,
        );
      }
    }
    assert.ok(split >= 16, `only ${split} of 24 documents were split`);
    assert.ok(explained >= 6, `only ${explained} of 24 documents were explained apart`);
    assert.ok(
      alone >= 4 && split - alone >= 4,
      `${alone} of ${split} split documents had their leaves built alone`,
    );
  });

  it('is refused as the whole document is, with the same reason, when one leaf cannot be built', () => {
    const props = Object.fromEntries(
      Array.from({ length: WIDE_ENOUGH + 5 }, (_, i) => [`p${i}`, { type: 'string', maxLength: i }]),
    );
    const tried = new Set<string>();
    const bads: JsonObject[] = [
      { type: 'string', pattern: '[' },
      { enum: [] },
      { nullable: true },
      { type: 'null', nullable: false },
      { nullable: 'yes', type: 'string' },
      { id: 'legacy' },
      { 'x-mcp-header': 5 },
      { type: 'object', patternProperties: { '(': { type: 'string' } } },
      { type: 'object', propertyNames: { pattern: '\\' } },
      { items: { anyOf: [{ enum: [] }] } },
    ];
    for (const bad of bads)
      for (const dialect of DIALECTS) {
        const doc: JsonObject = {
          $schema: META[dialect],
          type: 'object',
          properties: { ...props, p100: bad },
        };
        const what = `${dialect} ${JSON.stringify(bad)}`;
        // (`enum: []` is refused by the meta-schema before 2019-09.)
        if (schemaProblem(doc) !== undefined) continue;
        tried.add(JSON.stringify(bad));
        const whole = builds(dialect, doc);
        assert.equal(whole.ok, false, `${what}: Ajv refuses the document`);
        assert.throws(
          () => compileSchema(doc),
          (err: Error) => err.message.split('\n')[0]?.endsWith(whole.ok ? '' : whole.error) === true,
          what,
        );
      }
    assert.equal(tried.size, bads.length);
  });

  it('says what the meta-schema finds wrong with a leaf as it says it of the whole document', () => {
    const props = Object.fromEntries(
      Array.from({ length: WIDE_ENOUGH + 5 }, (_, i) => [`p${i}`, { type: 'string' }]),
    );
    for (const dialect of DIALECTS) {
      const doc: JsonObject = {
        $schema: META[dialect],
        type: 'object',
        properties: { ...props, p7: { type: 'strin' } },
      };
      const meta = reference(dialect);
      assert.equal(meta.validateSchema(doc, false), false);
      const problem = schemaProblem(doc);
      assert.ok(problem?.includes('/properties/p7/type'), problem);
      assert.equal(problem, meta.errorsText(meta.errors));
      assert.throws(() => compileSchema(doc), /schema is invalid/);
    }
  });

  it('builds a shell that holds none of the moved leaves, and applies each leaf to its member', () => {
    const width = 5000;
    const properties = Object.fromEntries(
      Array.from({ length: width }, (_, i) => [`p${i}`, { type: 'string', maxLength: i }]),
    );
    const fn = compileSchema({ type: 'object', properties, required: ['p1'] });
    // The shell's own validator stands behind it: its document holds none of the leaves.
    const shellSchema = fn.schemaEnv.schema as JsonObject;
    assert.deepEqual(shellSchema.properties, {});
    assert.equal(fn({ p1: 'a', p4999: 'x'.repeat(4999) }), true);
    assert.equal(fn({ p1: 'a', p4999: 'x'.repeat(5000) }), false);
    assert.equal(fn.errors?.[0]?.instancePath, '/p4999');
    assert.equal(fn({}), false);
  });
});
