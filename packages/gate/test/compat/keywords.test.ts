import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NESTING } from '../../src/compat/bounds.ts';
import { SCOPED } from '../../src/compat/definitions.ts';
import { GROUPS } from '../../src/compat/engine/adjacent.ts';
import { ARMS } from '../../src/compat/engine/declared.ts';
import { UNEVALUATED } from '../../src/compat/engine/adjacent.ts';
import { MAPS } from '../../src/compat/engine/includes.ts';
import { DIRECT } from '../../src/compat/engine/direct.ts';
import { DYNAMIC, SKIPPED } from '../../src/compat/ids.ts';
import { DYNAMIC_REFS } from '../../src/compat/applied.ts';
import {
  ANALYSED,
  ANNOTATIONS,
  ignoredIn,
  KEYWORDS,
  keywordsWhere,
  mapApplied,
  ONE_TYPE_KEYWORDS,
  TEXT_KEYWORDS,
} from '../../src/compat/keywords.ts';
import { IN_PLACE } from '../../src/compat/ref-cycles.ts';
import type { Json } from '../../src/compat/types.ts';

// Every keyword list of the gate is read from one table (keywords.ts). Each row below is one
// list, as the table makes it, beside what it must hold: the lists were kept by hand before,
// and these are what they held, so a change to the table that moves a keyword out of one shows.

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

describe('the keyword table', () => {
  const rows: { list: string; got: Iterable<string>; want: string[] }[] = [
    {
      list: 'text for a reader',
      got: TEXT_KEYWORDS,
      want: [
        'title',
        'description',
        'default',
        'examples',
        '$comment',
        'deprecated',
        'readOnly',
        'writeOnly',
      ],
    },
    {
      list: 'annotations (a change is reported, compatible)',
      got: ANNOTATIONS,
      want: [
        ...['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly'],
        ...['contentMediaType', 'contentEncoding', 'contentSchema', 'x-mcp-header'],
        ...['$schema', '$id', '$defs', 'definitions'],
      ],
    },
    {
      list: 'decided by the engine',
      got: ANALYSED,
      want: [
        ...[
          '$ref',
          'type',
          'enum',
          'const',
          'format',
          'not',
          'anyOf',
          'oneOf',
          'allOf',
          'if',
          'then',
          'else',
        ],
        ...['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames'],
        ...['minProperties', 'maxProperties', 'dependentRequired', 'dependentSchemas'],
        ...['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems'],
        ...['contains', 'minContains', 'maxContains', 'minLength', 'maxLength', 'pattern'],
        ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
        'discriminator',
      ],
    },
    {
      list: 'object-only',
      got: ONE_TYPE_KEYWORDS.object,
      want: [
        ...['required', 'properties', 'patternProperties', 'additionalProperties', 'minProperties'],
        ...['maxProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas', 'dependencies'],
        'unevaluatedProperties',
      ],
    },
    {
      list: 'array-only',
      got: ONE_TYPE_KEYWORDS.array,
      want: [
        ...['items', 'prefixItems', 'additionalItems', 'contains', 'minContains', 'maxContains'],
        ...['minItems', 'maxItems', 'uniqueItems', 'unevaluatedItems'],
      ],
    },
    { list: 'string-only', got: ONE_TYPE_KEYWORDS.string, want: ['minLength', 'maxLength', 'pattern'] },
    {
      list: 'number-only',
      got: ONE_TYPE_KEYWORDS.number,
      want: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
    },
    {
      list: 'ignored by draft-07',
      got: ignoredIn('draft-07'),
      want: [
        ...['dependentRequired', 'dependentSchemas', 'prefixItems', 'minContains', 'maxContains'],
        ...['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$recursiveRef', '$recursiveAnchor'],
      ],
    },
    { list: 'ignored by 2019-09', got: ignoredIn('2019-09'), want: ['prefixItems'] },
    { list: 'ignored by 2020-12', got: ignoredIn('2020-12'), want: ['additionalItems'] },
    {
      list: 'placed by something other than a local pointer',
      got: SCOPED,
      want: ['$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor', '$dynamicRef', '$recursiveRef'],
    },
    {
      list: 'maps of schemas',
      got: keywordsWhere((k) => k.holds === 'map'),
      want: ['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas', 'dependencies'],
    },
    {
      list: 'lists of schemas',
      got: keywordsWhere((k) => k.holds === 'list'),
      want: ['allOf', 'anyOf', 'oneOf', 'prefixItems'],
    },
    {
      list: 'one schema',
      got: keywordsWhere((k) => k.holds === 'one'),
      want: [
        ...['additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then'],
        ...['else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'],
      ],
    },
    {
      list: 'reported by annotation-changed, in this order',
      got: keywordsWhere(
        (k, name) =>
          k.role === 'annotation' &&
          !['description', 'title', 'default', 'examples', 'x-mcp-header'].includes(name),
      ),
      want: [
        '$comment',
        'deprecated',
        'readOnly',
        'writeOnly',
        'contentMediaType',
        'contentEncoding',
        'contentSchema',
      ],
    },
    {
      list: 'judged by a value alone (engine/direct.ts)',
      got: DIRECT,
      want: [
        ...['type', 'enum', 'const', 'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum'],
        ...['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems'],
        ...['minProperties', 'maxProperties', 'required'],
      ],
    },
    {
      list: 'arms whose properties name keys callers send (engine/declared.ts)',
      got: ARMS,
      want: ['dependentSchemas', 'then', 'else', 'allOf', 'anyOf', 'oneOf'],
    },
    {
      list: 'applied in place, one schema, then lists, then maps, in this order (ref-cycles.ts)',
      got: IN_PLACE,
      want: ['not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'dependentSchemas'],
    },
    {
      list: 'built nested by Ajv (bounds.ts)',
      got: NESTING,
      want: [
        'properties',
        'patternProperties',
        'dependentSchemas',
        'dependentRequired',
        'prefixItems',
        'items',
        'allOf',
      ],
    },
    {
      list: 'not entered by json-schema-traverse (ids.ts)',
      got: SKIPPED,
      want: [
        ...['default', 'enum', 'const', 'required', 'maximum', 'minimum', 'exclusiveMaximum'],
        ...['exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern', 'format', 'maxItems'],
        ...['minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'examples'],
      ],
    },
    {
      list: 'maps keyed by property name, counted as the width of a node (engine/includes.ts)',
      got: MAPS,
      want: ['properties', 'patternProperties', 'dependentRequired', 'dependentSchemas', 'dependencies'],
    },
    {
      list: 'reading what was evaluated around them (engine/adjacent.ts)',
      got: UNEVALUATED,
      want: ['unevaluatedProperties', 'unevaluatedItems'],
    },
    {
      list: 'read through the dynamic scope (ids.ts)',
      got: DYNAMIC,
      want: ['$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor'],
    },
    {
      list: 'dynamic references, in this order (applied.ts)',
      got: DYNAMIC_REFS,
      want: ['$dynamicRef', '$recursiveRef'],
    },
  ];
  for (const row of rows) {
    it(row.list, () => {
      const got = [...row.got];
      assert.equal(new Set(got).size, got.length, 'each keyword once');
      if (row.list.endsWith('in this order')) assert.deepEqual(got, row.want);
      else assert.deepEqual(sorted(got), sorted(row.want));
    });
  }

  it('groups the keywords read together (engine/adjacent.ts)', () => {
    const want = [
      ['if', 'then', 'else'],
      ['items', 'additionalItems', 'prefixItems'],
      ['contains', 'minContains', 'maxContains'],
    ];
    const bySorted = (gs: readonly (readonly string[])[]): string[] =>
      gs.map((g) => sorted(g).join(' ')).sort();
    assert.deepEqual(bySorted(GROUPS), bySorted(want));
  });

  it('says of every keyword what the walk does with it, coherently', () => {
    for (const [name, k] of Object.entries(KEYWORDS)) {
      assert.ok(k.dialects.length > 0, `${name} applies somewhere`);
      if (k.text) assert.equal(k.role, 'annotation', `${name}: text is an annotation`);
      if (k.role === 'annotation') assert.notEqual(k.engine, 'decided', `${name}: nothing to decide`);
      if (k.holds !== undefined)
        assert.ok(['applicator', 'annotation', 'definitions'].includes(k.role), `${name} holds schemas`);
      assert.ok(!name.startsWith('x-') || k.role === 'annotation', `${name}: an x- keyword is an annotation`);
      if (k.inPlace !== undefined) assert.equal(k.role, 'applicator', `${name}: in place applies subschemas`);
      if (k.skipped) assert.equal(k.holds, undefined, `${name}: Ajv enters every value that holds schemas`);
    }
  });

  it('rewrites the subschemas of the applicators the walk decides or reports, at any depth, and no others', () => {
    const a = { const: 'a' };
    const b = { const: 'b' };
    const node: { [key: string]: Json } = {
      properties: { p: a },
      items: [a, a],
      not: { not: a },
      contentSchema: a,
      $defs: { d: a },
      dependencies: { x: a },
      unevaluatedItems: a,
      enum: [a],
    };
    const seen: Json[] = [];
    const out = mapApplied(node, (v) => {
      seen.push(v);
      return v === a ? b : v;
    });
    assert.equal((out as { [key: string]: Json }).$defs, node.$defs);
    assert.deepEqual(out, {
      ...node,
      properties: { p: b },
      items: [b, b],
      not: { not: b },
      contentSchema: b,
    });
    // Each schema after the ones it holds, in document order; what is left alone is the same object.
    assert.deepEqual(seen, [a, a, a, a, { not: b }, a, out]);
    assert.equal(
      mapApplied(node, (v) => v),
      node,
    );
  });
});
