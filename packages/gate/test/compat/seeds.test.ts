import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  canonicalHash,
  compareManifests,
  compareSchemas,
  type Json,
  type Schema,
  type Tool,
} from '../../src/compat/index.ts';
import { FIXTURES, independentValidator, readJson } from './helpers.ts';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** One definition of a published MCP schema revision, as a standalone schema. */
function definition(revision: string, name: string): Schema {
  const doc = readJson<Record<string, unknown>>(path.join(FIXTURES, 'mcp-spec', `${revision}.json`));
  const key = doc.definitions ? 'definitions' : '$defs';
  return { $schema: doc.$schema as string, [key]: doc[key] as never, $ref: `#/${key}/${name}` };
}

const searchTool: Tool = {
  name: 'search',
  description: 'Search the catalogue',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'number' },
      format: { enum: ['json', 'csv'] },
      lang: { type: 'string' },
    },
    required: ['query'],
  },
};

describe('seed case: a re-serialised identical manifest', () => {
  it('keeps the canonical hash and is identical', () => {
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverseKeys)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reverseKeys(x)]),
            )
          : v;
    const reserialised = JSON.parse(JSON.stringify(reverseKeys(searchTool), null, 7)) as Tool;
    const reordered: Tool = JSON.parse(
      `{"inputSchema":{"required":["query"],"properties":{"lang":{"type":"string"},"format":{"enum":["json","csv"]},"limit":{"type":"number"},"query":{"type":"string"}},"type":"object"},"description":"Search the catalogue","name":"search"}`,
    ) as Tool;
    assert.equal(canonicalHash(reordered), canonicalHash(searchTool));
    assert.equal(canonicalHash(reserialised), canonicalHash(searchTool));
    const result = compareManifests([searchTool], [reordered]);
    assert.equal(result.verdict, 'identical');
  });

  it('changes the hash when the description changes', () => {
    assert.notEqual(
      canonicalHash({ ...searchTool, description: 'Search the catalogue.' }),
      canonicalHash(searchTool),
    );
  });
});

describe('seed case: real diffs between published MCP specification revisions', () => {
  it('Tool 2024-11-05 → 2025-03-26 (annotations added) is compatible, and the addition is reported', () => {
    const r = compareSchemas(definition('2024-11-05', 'Tool'), definition('2025-03-26', 'Tool'), 'input');
    assert.equal(r.verdict, 'compatible');
    assert.ok(
      r.findings.some(
        (f) => f.rule === 'property-added-to-open-object' && f.pointer.endsWith('/properties/annotations'),
      ),
    );
  });

  it('Tool 2025-03-26 → 2025-06-18 (title, outputSchema, _meta added) is compatible', () => {
    const r = compareSchemas(definition('2025-03-26', 'Tool'), definition('2025-06-18', 'Tool'), 'input');
    assert.equal(r.verdict, 'compatible');
    const added = r.findings
      .filter((f) => f.rule === 'property-added-to-open-object')
      .map((f) => f.pointer.split('/').pop());
    assert.deepEqual(added.sort(), ['_meta', 'outputSchema', 'title']);
  });

  it('the same change under strict open objects is breaking, with a verified witness', () => {
    const before = definition('2024-11-05', 'Tool');
    const after = definition('2025-03-26', 'Tool');
    const r = compareSchemas(before, after, 'input', { strictOpenObjects: true });
    assert.equal(r.verdict, 'breaking');
    const f = r.findings.find((x) => x.verdict === 'breaking');
    assert.equal(independentValidator(before)(f?.witness), true);
    assert.equal(independentValidator(after)(f?.witness), false);
  });

  it('Tool across the draft-07 → 2020-12 switch (2025-06-18 → 2025-11-25) is compatible', () => {
    const r = compareSchemas(definition('2025-06-18', 'Tool'), definition('2025-11-25', 'Tool'), 'input');
    assert.equal(r.verdict, 'compatible');
  });

  it('CallToolRequest 2025-06-18 → 2025-11-25 adds required jsonrpc and id: breaking, with witnesses', () => {
    const before = definition('2025-06-18', 'CallToolRequest');
    const after = definition('2025-11-25', 'CallToolRequest');
    const r = compareSchemas(before, after, 'input');
    assert.equal(r.verdict, 'breaking');
    const props = r.findings.filter((f) => f.rule === 'property-added-required').map((f) => f.args.property);
    assert.deepEqual(props.sort(), ['id', 'jsonrpc']);
    for (const f of r.findings.filter((x) => x.verdict === 'breaking')) {
      assert.equal(independentValidator(before)(f.witness), true);
      assert.equal(independentValidator(after)(f.witness), false);
    }
  });

  for (let i = 0; i + 1 < REVISIONS.length; i++) {
    it(`every pair of consecutive revisions of Tool gets a verdict without error (${REVISIONS[i]} → ${REVISIONS[i + 1]})`, () => {
      for (const direction of ['input', 'output'] as const) {
        const r = compareSchemas(
          definition(REVISIONS[i] as string, 'Tool'),
          definition(REVISIONS[i + 1] as string, 'Tool'),
          direction,
        );
        assert.ok(['compatible', 'breaking', 'unknown'].includes(r.verdict));
        assert.ok(!r.findings.some((f) => f.rule === 'schema-invalid'));
      }
    });
  }
});

describe('seed case: the six synthetic breaks', () => {
  const input = searchTool.inputSchema as {
    type: string;
    properties: Record<string, Json>;
    required: string[];
  };
  const closed = { ...input, additionalProperties: false };
  const breaks: [string, Schema, Schema, string][] = [
    [
      'required property added',
      input,
      {
        ...input,
        properties: { ...input.properties, region: { type: 'string' } },
        required: ['query', 'region'],
      },
      'property-added-required',
    ],
    [
      'property removed under additionalProperties: false',
      closed,
      {
        ...closed,
        properties: {
          query: { type: 'string' },
          limit: { type: 'number' },
          format: { enum: ['json', 'csv'] },
        },
      },
      'property-removed-from-closed-object',
    ],
    [
      'number → integer',
      input,
      { ...input, properties: { ...input.properties, limit: { type: 'integer' } } },
      'type-narrowed',
    ],
    [
      'enum shrink',
      input,
      { ...input, properties: { ...input.properties, format: { enum: ['json'] } } },
      'enum-value-removed',
    ],
    ['optional → required', input, { ...input, required: ['query', 'limit'] }, 'property-became-required'],
    [
      'additionalProperties true → false',
      { ...input, additionalProperties: true },
      closed,
      'additional-properties-closed',
    ],
  ];
  for (const [label, before, after, rule] of breaks) {
    it(`${label}: breaking (${rule}), with a witness the old schema accepts and the new one rejects`, () => {
      const result = compareManifests(
        [{ ...searchTool, inputSchema: before as never }],
        [{ ...searchTool, inputSchema: after as never }],
      );
      assert.equal(result.verdict, 'breaking');
      const f = result.tools[0]?.findings.find((x) => x.rule === rule);
      assert.ok(f, `finding ${rule}`);
      assert.equal(f.verdict, 'breaking');
      assert.equal(independentValidator(before)(f.witness), true);
      assert.equal(independentValidator(after)(f.witness), false);
    });
  }
});
