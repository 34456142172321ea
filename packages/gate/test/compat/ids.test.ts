import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compareSchemas, type Json, type JsonObject, type Schema } from '../../src/compat/index.ts';
import { resolveIds } from '../../src/compat/ids.ts';
import { renderMessage } from '../../src/compat/rules.ts';

// References through `$id`, decided as Ajv resolves them: the document with its references
// rewritten to local pointers (ids.ts) must be read by Ajv value for value as the document as
// written, and the gate must decide a change behind such a reference both ways.

const ROOT = 'https://example.com/schemas/root.json';

/** A root with an `$id`, its property x referring by `ref`, its definitions `defs`. */
const doc = (ref: string, defs: JsonObject): JsonObject => ({
  $id: ROOT,
  type: 'object',
  properties: { x: { $ref: ref } },
  $defs: defs,
});

const CASES: Record<string, JsonObject> = {
  'the root by its absolute URI': doc(`${ROOT}#/$defs/a`, { a: { type: 'string', maxLength: 3 } }),
  'the root by a relative file name': doc('root.json#/$defs/a', { a: { type: 'string', maxLength: 3 } }),
  'a nested resource by its id': doc('other.json', {
    a: { $id: 'other.json', type: 'string', maxLength: 3 },
  }),
  'a pointer within a nested resource': doc('other.json#/$defs/b', {
    a: { $id: 'other.json', $defs: { b: { type: 'string', maxLength: 3 } } },
  }),
  'an anchor within a nested resource': doc('other.json#short', {
    a: { $id: 'other.json', $defs: { b: { $anchor: 'short', type: 'string', maxLength: 3 } } },
  }),
  'a relative reference from inside a resource in another folder': doc('dir/first.json', {
    a: { $id: 'dir/first.json', $ref: 'second.json' },
    b: { $id: 'dir/second.json', type: 'string', maxLength: 3 },
  }),
  // Inside the nested resource, "#/$defs/t" is its own t (a string), not the root's (a number).
  'a local pointer read against the nested resource': {
    ...doc('nested.json', {
      n: {
        $id: 'nested.json',
        allOf: [{ $ref: '#/$defs/t' }],
        $defs: { t: { type: 'string', maxLength: 3 } },
      },
    }),
    $defs: {
      n: {
        $id: 'nested.json',
        allOf: [{ $ref: '#/$defs/t' }],
        $defs: { t: { type: 'string', maxLength: 3 } },
      },
      t: { type: 'number' },
    },
  },
  'an anchor of the same name in two resources': doc('two.json#v', {
    one: { $id: 'one.json', $anchor: 'v', type: 'number' },
    two: { $id: 'two.json', $anchor: 'v', type: 'string', maxLength: 3 },
  }),
};

const VALUES: Json[] = [{}, { x: 'ab' }, { x: 'abcd' }, { x: 5 }, { x: null }, { x: [] }, { x: {} }, 'x'];

/** A fresh Ajv, as a client would compile the document. */
const ajvOf = (schema: Schema) => new Ajv2020({ strict: false, logger: false }).compile(schema as object);

/** The same schema with the leaf's maxLength replaced (3 → n) everywhere. */
function withMaxLength(schema: JsonObject, n: number): JsonObject {
  return JSON.parse(JSON.stringify(schema).replaceAll('"maxLength":3', `"maxLength":${n}`)) as JsonObject;
}

describe('references through $id, as Ajv resolves them', () => {
  for (const [name, schema] of Object.entries(CASES)) {
    it(`${name}: the rewritten document is read as written, value for value`, () => {
      const rewritten = resolveIds(schema, false);
      assert.notEqual(rewritten, schema, 'rewritten');
      assert.ok(!JSON.stringify(rewritten).includes('"$id"'), 'no id left');
      const [a, b] = [ajvOf(schema), ajvOf(rewritten)];
      for (const v of VALUES) assert.equal(b(v), a(v), JSON.stringify(v));
    });

    it(`${name}: a change behind the reference, decided both ways`, () => {
      const [narrow, wide] = [schema, withMaxLength(schema, 8)];
      const breaking = compareSchemas(wide, narrow, 'input');
      assert.equal(breaking.verdict, 'breaking', JSON.stringify(breaking.findings));
      const f = breaking.findings.find((x) => x.verdict === 'breaking');
      assert.ok(f && f.witness !== undefined);
      assert.equal(ajvOf(wide)(f.witness), true);
      assert.equal(ajvOf(narrow)(f.witness), false);
      assert.equal(compareSchemas(narrow, wide, 'input').verdict, 'compatible');
    });
  }

  it('a reference outside the document is unknown, with its reason, either way', () => {
    const outside = doc('https://elsewhere.example/x.json', { a: { type: 'string', maxLength: 3 } });
    assert.equal(resolveIds(outside, false), outside);
    for (const [a, b] of [
      [outside, withMaxLength(outside, 8)],
      [withMaxLength(outside, 8), outside],
    ]) {
      const r = compareSchemas(a as Schema, b as Schema, 'input');
      assert.equal(r.verdict, 'unknown');
      assert.ok(
        r.findings.some((f) => f.rule === 'ref-unresolvable' && renderMessage(f).includes('elsewhere')),
      );
    }
  });

  it('left as written where Ajv refuses or reads it by the path a value takes', () => {
    const twice = doc('one.json', { a: { $id: 'one.json' }, b: { $id: 'one.json', type: 'string' } });
    const dynamic = { ...doc('other.json', { a: { $id: 'other.json', $dynamicAnchor: 'm' } }) };
    const badAnchor = doc('other.json', { a: { $id: 'other.json', $anchor: '1bad' } });
    for (const schema of [twice, dynamic, badAnchor]) assert.equal(resolveIds(schema, false), schema);
    // A document without ids, or whose references are all local, is not copied.
    const plain = { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: {} } };
    assert.equal(resolveIds(plain, false), plain);
  });
});
