import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareManifests, compareSchemas, type JsonObject, type Schema } from '../../src/compat/index.ts';
import { renderMessage } from '../../src/compat/rules.ts';
import { independentValidator } from './helpers.ts';

// Deep schemas, built in loops (no recursion here, whatever the depth): the gate answers each,
// decided where the validator compiles it and the gate reads that deep, else unknown with a
// reason; never an error of its own.

type Wrap = (inner: JsonObject) => JsonObject;
const WRAPS: Record<string, Wrap> = {
  properties: (s) => ({ type: 'object', properties: { a: s } }),
  items: (s) => ({ type: 'array', items: s }),
  anyOf: (s) => ({ anyOf: [s, { type: 'null' }] }),
  allOf: (s) => ({ allOf: [s] }),
  not: (s) => ({ not: { not: s } }),
  additionalProperties: (s) => ({ type: 'object', additionalProperties: s }),
};

function nested(wrap: Wrap, levels: number, leaf: JsonObject): JsonObject {
  let s = leaf;
  for (let i = 0; i < levels; i++) s = wrap(s);
  return s;
}

/** n definitions, each only a reference to the next but the last. */
function refChain(n: number, leaf: JsonObject): JsonObject {
  const defs: JsonObject = {};
  for (let i = 0; i < n; i++) defs[`d${i}`] = i + 1 < n ? { $ref: `#/$defs/d${i + 1}` } : leaf;
  return { $defs: defs, $ref: '#/$defs/d0' };
}

/** n definitions, each an object whose property refers to the next: nesting by reference. */
function refNesting(n: number, leaf: JsonObject): JsonObject {
  const defs: JsonObject = {};
  for (let i = 0; i < n; i++)
    defs[`d${i}`] = i + 1 < n ? { type: 'object', properties: { a: { $ref: `#/$defs/d${i + 1}` } } } : leaf;
  return { $defs: defs, $ref: '#/$defs/d0' };
}

const LEAF = { type: 'string' };
const NARROWED = { type: 'string', maxLength: 3 };

/** Breaking, with a witness the old schema accepts and the new one rejects, as Ajv itself decides. */
function breaksWithWitness(old: Schema, now: Schema): void {
  const r = compareSchemas(old, now, 'input');
  assert.equal(r.verdict, 'breaking', JSON.stringify(r.findings.map((f) => f.rule)));
  const f = r.findings.find((x) => x.verdict === 'breaking');
  assert.ok(f && f.witness !== undefined);
  assert.equal(independentValidator(old)(f.witness), true);
  assert.equal(independentValidator(now)(f.witness), false);
}

describe('deep schemas', () => {
  for (const [name, wrap] of Object.entries(WRAPS))
    it(`${name} nested 5,000 deep: unknown with a reason, as a schema and in a manifest`, () => {
      const [old, now] = [nested(wrap, 5000, LEAF), nested(wrap, 5000, NARROWED)];
      const r = compareSchemas(old, now, 'input');
      assert.equal(r.verdict, 'unknown');
      assert.ok(r.findings.length > 0 && r.findings.every((f) => renderMessage(f).length > 0));
      assert.ok(!r.findings.some((f) => f.rule === 'schema-unprocessable'), 'not an error of its own');
      const m = compareManifests(
        { tools: [{ name: 't', inputSchema: old }] },
        { tools: [{ name: 't', inputSchema: now }] },
      );
      assert.equal(m.verdict, 'unknown');
    });

  it('a chain of 1,999 references, each to the next, is followed to its end', () => {
    breaksWithWitness(refChain(1999, LEAF), refChain(1999, NARROWED));
  });

  it('a chain of references that leads back to itself resolves to nothing, and says so', () => {
    const loop: JsonObject = {
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
      $ref: '#/$defs/a',
    };
    const r = compareSchemas(refChain(3, LEAF), loop, 'input');
    assert.equal(r.verdict, 'unknown');
    assert.ok(r.findings.length > 0 && r.findings.every((f) => renderMessage(f).length > 0));
  });

  it('nesting 200 deep through references, which Ajv compiles, is decided', () => {
    const [old, now] = [refNesting(200, LEAF), refNesting(200, NARROWED)];
    independentValidator(now); // the oracle compiles it
    breaksWithWitness(old, now);
  });

  it('nesting 2,000 deep through references: unknown with a reason, not an error of its own', () => {
    const r = compareSchemas(refNesting(2000, LEAF), refNesting(2000, NARROWED), 'input');
    assert.equal(r.verdict, 'unknown');
    assert.ok(r.findings.length > 0 && r.findings.every((f) => renderMessage(f).length > 0));
    assert.ok(!r.findings.some((f) => f.rule === 'schema-unprocessable'), JSON.stringify(r.findings));
  });
});
