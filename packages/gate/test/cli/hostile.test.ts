import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  canonicalHash,
  canonicalJson,
  compareManifests,
  compareSchemas,
  definitionHash,
  jsonText,
  MAX_SCHEMA_REFS,
  MAX_SCHEMA_VALUES,
  renderMessage,
  type Finding,
  type Json,
  type JsonObject,
  type Schema,
  type Tool,
} from '../../src/compat/index.ts';
import { sameJson } from '../../src/compat/hash.ts';
import { compileSchema } from '../../src/compat/validator.ts';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  enumCase,
  INVALID_SCHEMAS,
  manyToolsCase,
  nested,
  oneOfCase,
  propertiesCase,
} from '../../bench/compat-hostile-inputs.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-hostile-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes a manifest without JSON.stringify (which cannot write 10,000 levels). */
function write(name: string, doc: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, jsonText(doc));
  return file;
}

async function gate(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIo();
  const code = await main([...argv], io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

/** What a reader sees of a finding never holds the runtime's own words. */
function assertOwnWords(f: Finding): void {
  const text = renderMessage(f);
  assert.ok(text.length > 0);
  assert.doesNotMatch(text, /Maximum call stack|Cannot read|is not a function|undefined/);
}

describe('hostile input: nothing crashes', () => {
  const deepOld = nested(10_000, { type: 'string' });
  const deepNew = nested(10_000, { type: 'integer' });

  it('a schema nested 10,000 deep is unknown with schema-too-deep, in both directions', () => {
    for (const direction of ['input', 'output'] as const) {
      const r = compareSchemas(deepOld, deepNew, direction);
      assert.equal(r.verdict, 'unknown');
      assert.deepEqual(
        r.findings.map((f) => f.rule),
        ['schema-too-deep'],
      );
      assertOwnWords(r.findings[0] as Finding);
    }
    assert.equal(compareSchemas(deepOld, nested(10_000, { type: 'string' }), 'input').verdict, 'identical');
  });

  it('a schema nested 10,000 deep is hashed, written and read back', () => {
    const tool: Tool = { name: 'deep', inputSchema: deepOld };
    assert.match(canonicalHash(tool), /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(definitionHash(tool), definitionHash({ name: 'deep', inputSchema: deepNew }));
    assert.ok(sameJson(JSON.parse(canonicalJson(deepOld)), deepOld));
    assert.ok(sameJson(JSON.parse(jsonText(deepOld, 2)), deepOld));
  });

  it('a schema of more values than the bound is unknown with schema-too-large', () => {
    const many = Array.from({ length: MAX_SCHEMA_VALUES }, (_, i) => i);
    const r = compareSchemas({ enum: many }, { enum: many.slice(1) }, 'input');
    assert.equal(r.verdict, 'unknown');
    assert.deepEqual(
      r.findings.map((f) => f.rule),
      ['schema-too-large'],
    );
  });

  it('a schema of more $ref targets than the bound is unknown with schema-too-many-refs', () => {
    const names = Array.from({ length: MAX_SCHEMA_REFS + 1 }, (_, i) => `d${i}`);
    const schema = {
      $defs: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
      type: 'object',
      properties: Object.fromEntries(names.map((n) => [n, { $ref: `#/$defs/${n}` }])),
    };
    const r = compareSchemas(schema, { ...schema, required: ['d0'] }, 'input');
    assert.deepEqual(
      r.findings.map((f) => f.rule),
      ['schema-too-many-refs'],
    );
  });

  it("a oneOf too long for the validator to run is unknown with schema-unprocessable, in the gate's words", () => {
    // Not exclusive (no tag tells the branches apart), so Ajv nests each branch in the one
    // before: about 2,000 build but overflow the stack when run, 3,000 do not even build.
    // Either way the schema is valid, only too large for the validator: the same rule,
    // wherever this process's stack happens to give out.
    const branches = (n: number): JsonObject[] =>
      Array.from({ length: n }, (_, i) => ({ type: 'object', required: [`a${i}`] }));
    for (const [n, rule] of [
      [2000, 'schema-unprocessable'],
      [3000, 'schema-unprocessable'],
    ] as const) {
      const r = compareSchemas({ oneOf: branches(n) }, { oneOf: branches(n).slice(1) }, 'input');
      assert.deepEqual(
        r.findings.map((f) => f.rule),
        [rule],
      );
      assertOwnWords(r.findings[0] as Finding);
    }
  });

  for (const [shape, schema] of Object.entries(INVALID_SCHEMAS)) {
    it(`an invalid schema (${shape}) is its own tool's unknown; the other 50 are judged`, () => {
      const c = manyToolsCase(50);
      const old = [...c.old.tools, { name: 'invalid', inputSchema: { type: 'object' } }];
      const now = [...c.new.tools, { name: 'invalid', inputSchema: schema }];
      const r = compareManifests(old, now);
      assert.equal(r.tools.length, 51);
      const bad = r.tools.find((t) => t.name === 'invalid');
      assert.equal(bad?.verdict, 'unknown');
      const reason = bad?.findings.find((f) => f.verdict === 'unknown') as Finding;
      assert.ok(
        ['schema-invalid', 'ref-unresolvable', 'ref-cycle', 'schema-unprocessable'].includes(reason.rule),
      );
      assertOwnWords(reason);
      for (const t of r.tools.filter((x) => x.name !== 'invalid'))
        assert.equal(t.verdict, Number(t.name.slice(-2)) % 2 === 1 ? 'breaking' : 'compatible', t.name);
    });
  }

  it('a schema the validator would follow without end is unknown with ref-cycle, found before any walk', () => {
    const looping = { allOf: [{ $ref: '#' }], type: 'object' };
    const r = compareSchemas({ type: 'object' }, looping, 'input');
    assert.equal(r.verdict, 'unknown');
    assert.deepEqual(
      r.findings.map((f) => f.rule),
      ['ref-cycle'],
    );
    assertOwnWords(r.findings[0] as Finding);
  });

  it('a pattern no regular expression compiles is schema-invalid, wherever the schema is first built', () => {
    // The walk builds the validator of a finite part (an enum) before the whole: the regex error
    // met there must read as the invalid schema it is, not as the gate's own error.
    const shapes: [string, JsonObject, JsonObject][] = [
      ['a string', { type: 'string' }, { type: 'string', pattern: '[' }],
      ['an enum', { enum: ['a'] }, { enum: ['a'], pattern: '[' }],
      [
        'an enum, nested',
        { properties: { a: { items: { enum: ['x'] } } } },
        { properties: { a: { items: { enum: ['x'], pattern: '(' } } } },
      ],
      [
        'a pattern property',
        { type: 'object' },
        { type: 'object', patternProperties: { '[': { const: 1 } } },
      ],
    ];
    for (const [name, old, next] of shapes)
      for (const direction of ['input', 'output'] as const) {
        const r = compareSchemas(old, next, direction);
        assert.equal(r.verdict, 'unknown', name);
        assert.deepEqual(
          r.findings.map((f) => f.rule),
          ['schema-invalid'],
          `${name}, ${direction}`,
        );
        assert.match(String(r.findings[0]?.args?.error), /Invalid regular expression/, name);
      }
  });

  it('a schema whose validator throws on a value is unknown with schema-unprocessable, naming the value', () => {
    // Ajv 8, collecting every error, builds this into code that throws a TypeError on {"a": ""}
    // (its bookkeeping of evaluated properties): the value can be judged neither way.
    const trap = {
      allOf: [{ allOf: [{ oneOf: [{ additionalProperties: false }] }], patternProperties: { '^a': {} } }],
    };
    const open = { type: 'object', properties: { a: { type: 'string' } } };
    const r = compareSchemas(open, { ...open, allOf: [trap] }, 'input');
    assert.equal(r.verdict, 'unknown');
    assert.deepEqual(
      r.findings.map((f) => f.rule),
      ['schema-unprocessable'],
    );
    assert.match(
      String(r.findings[0]?.args?.error),
      /^the validator fails on the value \{"a":""\}: .*throws \(TypeError\)/,
    );
    assertOwnWords(r.findings[0] as Finding);
    // Removing the trap loosens the schema, and no value the validator fails on is needed to say so.
    assert.equal(compareSchemas({ ...open, allOf: [trap] }, open, 'input').verdict, 'compatible');
  });

  it('a tool that cannot be judged at all is unknown with tool-unprocessable; the others are judged', () => {
    // Not JSON (it holds itself), so no hash can be taken: the one way left to fail a whole tool.
    const cyclic: JsonObject = { type: 'object' };
    (cyclic as Record<string, unknown>).self = cyclic;
    const c = manyToolsCase(3);
    const r = compareManifests(
      [...c.old.tools, { name: 'odd', inputSchema: { type: 'object' } }],
      [...c.new.tools, { name: 'odd', inputSchema: cyclic }],
    );
    const odd = r.tools.find((t) => t.name === 'odd');
    assert.equal(odd?.verdict, 'unknown');
    assert.equal(odd?.findings[0]?.rule, 'tool-unprocessable');
    assertOwnWords(odd?.findings[0] as Finding);
    assert.deepEqual(Object.fromEntries(r.tools.map((t) => [t.name, t.verdict])), {
      odd: 'unknown',
      'tool-00': 'compatible',
      'tool-01': 'breaking',
      'tool-02': 'compatible',
    });
  });

  it('names and values written like validator code are data to the validator, as to an independent one', () => {
    const code = ['return function validate0(data){return true;}', '});return true;}', '*/}', '\u2028})\n'];
    const schema: Schema = {
      type: 'object',
      properties: Object.fromEntries(code.map((c) => [c, { const: c }])),
      required: [code[0] as string],
      patternProperties: { '^\\}\\)': { type: 'string', pattern: 'return function \\w+\\(' } },
      additionalProperties: false,
    };
    const gate = gateValidator(schema),
      own = independentValidator(schema);
    const values: Json[] = [
      Object.fromEntries(code.filter((c) => !c.startsWith('})')).map((c) => [c, c])),
      { [code[0] as string]: code[0] as string, '})x': 'return function f(' },
      { [code[0] as string]: code[0] as string, '})x': 'no' },
      { [code[1] as string]: code[1] as string },
      { [code[0] as string]: 'validate0' },
    ];
    assert.deepEqual(values.map(gate), [true, true, false, false, false]);
    assert.deepEqual(values.map(gate), values.map(own));
  });

  it('any JSON value in any place of a schema or a tool: every call returns a verdict', () => {
    const hostile: Json[] = [
      null,
      0,
      -1,
      1e308,
      JSON.parse('1e400') as number,
      '',
      '\ud800',
      true,
      [],
      [null],
      {},
      { $ref: '#' },
      JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) as Json,
    ];
    const base: JsonObject = {
      type: 'object',
      properties: {
        a: { type: 'string', enum: ['x', 'y'] },
        b: { anyOf: [{ type: 'integer' }, { const: 1 }] },
      },
      required: ['a'],
      additionalProperties: false,
    };
    const places: ((v: Json) => JsonObject)[] = [
      (v) => ({ ...base, type: v }),
      (v) => ({ ...base, properties: v }),
      (v) => ({ ...base, properties: { ...(base.properties as JsonObject), a: v } }),
      (v) => ({ ...base, required: v }),
      (v) => ({ ...base, additionalProperties: v }),
      (v) => ({ ...base, properties: { b: { anyOf: [v, { type: 'null' }] } } }),
      (v) => ({ ...base, properties: { a: { enum: [v, 'x'] } } }),
      (v) => ({ ...base, $defs: { A: v }, properties: { a: { $ref: '#/$defs/A' } } }),
    ];
    for (const v of hostile) {
      for (const place of places) {
        const schema = place(v);
        for (const [a, b] of [
          [base, schema],
          [schema, base],
        ] as [Schema, Schema][]) {
          for (const direction of ['input', 'output'] as const) {
            const r = compareSchemas(a, b, direction);
            assert.ok(['identical', 'compatible', 'breaking', 'unknown'].includes(r.verdict));
          }
        }
        const tools: Tool[] = [{ name: 't', description: v as string, inputSchema: schema, annotations: v }];
        const r = compareManifests([{ name: 't', inputSchema: base, title: 'T' }], tools, {
          calls: [{ line: 1, tool: 't', arguments: v }],
        });
        assert.equal(r.tools.length, 1);
      }
      // Whole manifests and tool entries that are not what they should be.
      for (const m of [v, { tools: v }, { tools: [v] }, [v]]) {
        const r = compareManifests(m, { tools: [{ name: 't', inputSchema: base }] });
        assert.ok(r.tools.every((t) => t.name === 't'));
      }
    }
  });
});

/**
 * An Ajv of the test's own, to check witnesses independently of the gate's. It collects every
 * error (Ajv's default build cannot compile 10,000 properties: it nests their code), and skips
 * optimising its code, which takes seconds on a 1,000-branch oneOf and changes nothing here.
 */
const independent = new Ajv2020({ strict: false, logger: false, allErrors: true, code: { optimize: false } });
function independentValidator(schema: Schema): (value: unknown) => boolean {
  const fn = independent.compile(schema as object);
  return (value) => fn(value) === true;
}

/** The gate's own validator, compiled already by the comparison: for schemas too large to compile twice in a test. */
function gateValidator(schema: Schema): (value: unknown) => boolean {
  const fn = compileSchema(schema);
  return (value) => fn(value) === true;
}

describe('hostile input: a schema the validator cannot build gets the same answer every time', () => {
  // Outer refers to #/$defs/Inner, a name only Outer itself holds: in the document it leads
  // nowhere. Ajv's first build fails; its second, in the same instance, used to succeed on what
  // the first had left behind, and the pair was then answered compatible.
  const tree = (extra: JsonObject): Schema => ({
    type: 'object',
    properties: { tree: { $ref: '#/$defs/Tree' } },
    $defs: {
      Tree: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/Tree' } },
          ...extra,
        },
        required: ['name'],
      },
    },
  });
  const broken = (): Schema => {
    const s = tree({ tags: { type: 'object', properties: { nested: { $ref: '#/$defs/Outer' } } } });
    const defs = (s as JsonObject).$defs as JsonObject;
    (defs.Tree as JsonObject).additionalProperties = false;
    defs.Outer = {
      $defs: { Inner: { type: 'array', items: { type: 'boolean' }, maxItems: 3 } },
      $ref: '#/$defs/Inner',
    };
    return s;
  };
  const fine = tree({});
  const answer = (a: Schema, b: Schema): string[] =>
    compareSchemas(a, b, 'input').findings.map((f) => `${f.rule} ${String(f.args?.error ?? '')}`);
  it('before and after other comparisons, in either order, with the same objects or copies', () => {
    const invalid = ["schema-invalid can't resolve reference #/$defs/Inner from id #"];
    const same = broken();
    assert.deepEqual(answer(same, fine), invalid);
    assert.deepEqual(answer(fine, same), invalid);
    assert.deepEqual(answer(same, fine), invalid);
    assert.deepEqual(answer(broken(), fine), invalid);
    assert.deepEqual(answer(fine, broken()), invalid);
  });
});

/** The one tool of a hostile case, compared, with its findings' witnesses checked again. */
function judgedWithVerifiedWitnesses(
  c: { old: { tools: Tool[] }; new: { tools: Tool[] } },
  validator = independentValidator,
): Finding[] {
  const r = compareManifests(c.old, c.new);
  const tool = r.tools[0];
  assert.ok(tool);
  const accepts = validator(c.old.tools[0]?.inputSchema as Schema),
    stillAccepts = validator(c.new.tools[0]?.inputSchema as Schema);
  for (const f of tool.findings.filter((x) => x.verdict === 'breaking')) {
    assert.notEqual(f.witness, undefined, `${f.rule} has a witness`);
    assert.equal(accepts(f.witness), true, `${f.rule}: the old schema accepts it`);
    assert.equal(stillAccepts(f.witness), false, `${f.rule}: the new schema rejects it`);
  }
  return tool.findings;
}

describe('hostile input: nothing explodes', () => {
  it('an enum of 100,000 values losing one is breaking, with a verified witness', () => {
    const findings = judgedWithVerifiedWitnesses(enumCase(100_000));
    assert.deepEqual(
      findings.map((f) => [f.rule, f.verdict, f.args.value]),
      [['enum-value-removed', 'breaking', 'value-0']],
    );
  });

  it('a oneOf of 1,000 branches losing one is breaking, with a verified witness', () => {
    const findings = judgedWithVerifiedWitnesses(oneOfCase(1000), gateValidator);
    assert.deepEqual(
      findings.map((f) => [f.rule, f.verdict, f.pointer]),
      [['any-of-branch-removed', 'breaking', '/inputSchema/properties/shape/oneOf']],
    );
  });

  it('10,000 properties with one made required is breaking, with a verified witness', () => {
    const findings = judgedWithVerifiedWitnesses(propertiesCase(10_000), gateValidator);
    assert.deepEqual(
      findings.map((f) => [f.rule, f.verdict, f.args.property]),
      [['property-became-required', 'breaking', 'p9999']],
    );
  });

  it('a trial repeated for every entry of another wide map ends in budget-exhausted', () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `p${i}`);
    const base = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: Object.fromEntries(names.map((k) => [k, { type: 'string' }])),
    };
    const dependentRequired = Object.fromEntries(
      names.map((k, i) => [k, [names[(i + 1) % 10_000] as string]]),
    );
    const r = compareSchemas(base, { ...base, dependentRequired }, 'input');
    assert.deepEqual(
      r.findings.map((f) => f.rule),
      ['budget-exhausted'],
    );
  });

  it('10,000 properties all made required: breaking, the first witnesses verified, the rest unknown', () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `p${i}`);
    const base = {
      type: 'object',
      properties: Object.fromEntries(names.map((k) => [k, { type: 'string' }])),
    };
    const r = compareSchemas(base, { ...base, required: names }, 'input');
    assert.equal(r.verdict, 'breaking');
    const verified = r.findings.filter((f) => f.verdict === 'breaking');
    const unverified = r.findings.filter((f) => f.verdict === 'unknown');
    assert.ok(verified.length >= 100 && verified.every((f) => f.witness !== undefined));
    assert.equal(verified.length + unverified.length, 10_000);
    assert.match(renderMessage(unverified[0] as Finding), /\(not verified: /);
  });

  it('an enum against an anyOf of as many consts costs its share of the work budget', () => {
    const consts = (n: number): JsonObject[] => Array.from({ length: n }, (_, i) => ({ const: i }));
    const values = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
    // A thousand values are decided one by one with the validator ...
    assert.equal(
      compareSchemas({ enum: values(1000) }, { anyOf: consts(1000).slice(1) }, 'input').verdict,
      'breaking',
    );
    // ... fifty thousand against as many branches would be 2.5 billion comparisons: the budget says no.
    const r = compareSchemas({ enum: values(50_000) }, { anyOf: consts(50_000).slice(1) }, 'input');
    assert.deepEqual(
      r.findings.map((f) => f.rule),
      ['budget-exhausted'],
    );
  });

  it('an enum of 100,000 values against a new side the validator must judge whole is decided too', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `value-${i}`);
    const r = compareSchemas({ enum: values }, { enum: values, not: { const: 'value-7' } }, 'input');
    assert.equal(r.verdict, 'breaking');
    assert.deepEqual(
      r.findings.map((f) => [f.rule, f.witness]),
      [['enum-value-removed', 'value-7']],
    );
  });

  it('minProperties of 100,000 raised by one is answered: no witness of 100,000 names is built', () => {
    // Building it name by name, counting the names each time, took minutes.
    const r = compareSchemas(
      { type: 'object', minProperties: 100_000 },
      { type: 'object', minProperties: 100_001 },
      'input',
    );
    assert.equal(r.verdict, 'unknown');
    assert.deepEqual(
      r.findings.map((f) => [f.rule, f.reason]),
      [['min-properties-increased', 'no witness could be built for it']],
    );
    // A count a schema could really ask for is still shown by a witness.
    const small = compareSchemas(
      { type: 'object', minProperties: 999 },
      { type: 'object', minProperties: 1000 },
      'input',
    );
    assert.equal(small.verdict, 'breaking');
    assert.equal(Object.keys(small.findings[0]?.witness as JsonObject).length, 999);
  });
});

describe('hostile input through the CLI', () => {
  it('gate diff --json: one invalid tool among 50 valid ones, every tool listed, JSON intact', async () => {
    const c = manyToolsCase(50, 'a definition that refers to itself');
    const r = await gate('diff', write('old.json', c.old), write('new.json', c.new), '--json');
    assert.equal(r.err, '');
    assert.equal(r.code, 1);
    const doc = JSON.parse(r.out) as {
      servers: { items: { name: string; verdict: string; findings: Finding[] }[] }[];
    };
    const items = doc.servers[0]?.items ?? [];
    assert.equal(items.length, 51);
    const bad = items.find((t) => t.name === 'invalid');
    assert.equal(bad?.verdict, 'unknown');
    assert.ok(bad?.findings.some((f) => f.verdict === 'unknown'));
  });

  it('pin, check, diff and accept a schema nested 10,000 deep', async () => {
    const old = write('deep-old.json', {
      tools: [{ name: 'deep', inputSchema: nested(10_000, { type: 'string' }) }],
    });
    const now = write('deep-new.json', {
      tools: [{ name: 'deep', inputSchema: nested(10_000, { type: 'integer' }) }],
    });
    const lock = path.join(dir, 'deep-lock.json');
    assert.equal((await gate('pin', '--manifest', old, '--lock', lock)).code, 0);
    assert.equal((await gate('check', '--manifest', old, '--lock', lock)).code, 0);
    const check = await gate('check', '--manifest', now, '--lock', lock);
    assert.equal(check.code, 2);
    assert.match(
      check.out,
      /^unknown: 1 tool changed \(schema-too-deep\)\n {2}deep: unknown — the schema nests deeper than 256 levels.*\(schema-too-deep at \/inputSchema\)\n {4}accept: .* --tool deep@sha256:[0-9a-f]{64}\n1 unknown in 1 server\n$/,
    );
    const diff = await gate('diff', lock, now, '--json');
    assert.equal((JSON.parse(diff.out) as { verdict: string }).verdict, 'unknown');
    assert.equal((await gate('accept', '--manifest', now, '--lock', lock, '--tool', 'deep')).code, 0);
    assert.equal((await gate('check', '--manifest', now, '--lock', lock)).code, 0);
  });

  it('a damaged lockfile is refused in one line', async () => {
    const lock = write('damaged-lock.json', { lockfileVersion: 1, tools: { a: null, b: { definition: 5 } } });
    const r = await gate('check', '--manifest', write('one.json', { tools: [] }), '--lock', lock);
    assert.equal(r.code, 3);
    assert.match(r.err, /^warden-gate \w+: .*damaged-lock\.json: tool "a" has no definition\n$/);
  });
});
