import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalJson, jsonText } from '../../src/compat/json-text.ts';

/** RFC 8785 (JCS) cases: property order by UTF-16 code units, ECMAScript number text, minimal escapes. */
const TABLE: [string, unknown, string][] = [
  [
    'keys sorted by UTF-16 code units',
    { b: 1, a: 2, A: 3, é: 4, '\u{1F600}': 5, '\uFB33': 6 },
    '{"A":3,"a":2,"b":1,"é":4,"\u{1F600}":5,"דּ":6}',
  ],
  [
    'nested objects and arrays keep array order',
    { z: [3, { y: 1, x: 2 }], a: null },
    '{"a":null,"z":[3,{"x":2,"y":1}]}',
  ],
  [
    'numbers as ECMAScript writes them',
    [1e21, 1e-7, 0.000001, -0, 1.5, 100, 2 ** 53],
    '[1e+21,1e-7,0.000001,0,1.5,100,9007199254740992]',
  ],
  [
    'control characters escaped, the rest as is',
    ['\u0000\u001f\b\f\n\r\t"\\', '\u2028/é'],
    '["\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\","\u2028/é"]',
  ],
  ['literals', [true, false, null], '[true,false,null]'],
];

describe('canonical JSON (RFC 8785) without recursion', () => {
  for (const [name, value, text] of TABLE) it(name, () => assert.equal(canonicalJson(value), text));

  it('parses back to the same value, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        assert.deepEqual(JSON.parse(canonicalJson(v)), JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('writes the same text by recursion as by the explicit stack, whatever order keys come in', () => {
    // 64 arrays around a value send the whole of it to the stack writer.
    const wrapped = (v: unknown): unknown => {
      let out = v;
      for (let i = 0; i < 64; i++) out = [out];
      return out;
    };
    const key = fc.oneof(fc.string(), fc.constantFrom('0', '10', '2', 'a', 'B', 'é', '\u{1F600}', '\uFB33'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 6 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        assert.equal(canonicalJson(wrapped(v)), `${'['.repeat(64)}${canonicalJson(v)}${']'.repeat(64)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order keys were written in', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), (o) => {
        const reversed = Object.fromEntries(Object.entries(o).reverse());
        assert.equal(canonicalJson(reversed), canonicalJson(o));
      }),
      { numRuns: 200 },
    );
  });

  it('writes JSON.stringify text, and a value 10,000 deep, without recursion', () => {
    const v = { a: [1, { b: 'x' }] };
    assert.equal(jsonText(v, 2), JSON.stringify(v, null, 2));
    let deep: unknown = 0;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    assert.equal(canonicalJson(deep).length, 20_001);
    assert.equal(jsonText(deep).length, 20_001);
    assert.equal(jsonText(deep, 2).replace(/\s/g, '').length, 20_001);
  });

  it('writes JSON.stringify text for any value up to 64 levels deep, compact below that, and refuses a cycle', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(0, 2), (v, indent) => {
        assert.equal(jsonText(v, indent), JSON.stringify(v, null, indent));
      }),
      { numRuns: 300 },
    );
    const nest = (levels: number): unknown => {
      let v: unknown = 'x';
      for (let i = 0; i < levels; i++) v = { k: v };
      return v;
    };
    assert.equal(jsonText(nest(64), 2), JSON.stringify(nest(64), null, 2));
    const beyond = jsonText(nest(65), 2);
    assert.notEqual(beyond, JSON.stringify(nest(65), null, 2), 'the 65th level is written compact');
    assert.deepEqual(JSON.parse(beyond), nest(65));
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => jsonText(cycle), TypeError);
  });
});
