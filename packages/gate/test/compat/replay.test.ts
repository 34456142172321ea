import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalHash,
  compileSchema,
  definitionHash,
  parseCalls,
  replay,
  type Tool,
} from '../../src/compat/index.ts';

describe('parseCalls', () => {
  it('reads {tool, arguments} and {name, arguments} lines, skipping blank ones', () => {
    const calls = parseCalls('{"tool":"a","arguments":{"x":1}}\n\n{"name":"b"}\n');
    assert.deepEqual(calls, [
      { line: 1, tool: 'a', arguments: { x: 1 } },
      { line: 3, tool: 'b', arguments: {} },
    ]);
  });

  it('names the line of a broken record instead of skipping it', () => {
    assert.throws(() => parseCalls('{"tool":"a"}\n{oops'), /line 2: not valid JSON/);
    assert.throws(() => parseCalls('{"arguments":{}}'), /line 1: a call needs a "tool" name/);
  });
});

describe('replay', () => {
  const manifest: Tool[] = [
    {
      name: 'when',
      inputSchema: {
        type: 'object',
        properties: { day: { type: 'string', format: 'date' } },
        required: ['day'],
      },
    },
    {
      name: 'old',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { t: { type: 'array', items: [{ type: 'string' }] } },
      },
    },
  ];

  it('rejects calls the manifest does not accept, asserting formats', () => {
    const calls = parseCalls(
      [
        '{"tool":"when","arguments":{"day":"2024-02-29"}}',
        '{"tool":"when","arguments":{"day":"tomorrow"}}',
        '{"tool":"gone","arguments":{}}',
      ].join('\n'),
    );
    const r = replay(calls, manifest);
    assert.equal(r.checked, 3);
    assert.deepEqual(r.rejected, [
      { line: 2, tool: 'when', error: '/day must match format "date"' },
      { line: 3, tool: 'gone', error: 'tool is not in the manifest' },
    ]);
  });

  it('uses draft-07 where the schema says so (items as a tuple)', () => {
    const r = replay(
      parseCalls('{"tool":"old","arguments":{"t":["a", 2]}}\n{"tool":"old","arguments":{"t":[1]}}'),
      { tools: manifest },
    );
    assert.deepEqual(
      r.rejected.map((x) => x.line),
      [2],
    );
  });

  it("registers MCP's x-mcp-header keyword (a string annotation)", () => {
    const ok = compileSchema({
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'X-Region' } },
    });
    assert.equal(ok({ region: 'eu' }), true);
    assert.throws(() =>
      compileSchema({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 7 } } }),
    );
  });
});

describe('hashes', () => {
  const tool: Tool = {
    name: 't',
    description: 'd',
    inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
    title: 'T',
  };

  it('canonicalHash covers name, description and inputSchema only', () => {
    assert.equal(canonicalHash(tool), canonicalHash({ ...tool, title: 'Other' }));
    assert.notEqual(canonicalHash(tool), canonicalHash({ ...tool, inputSchema: { type: 'object' } }));
    assert.match(canonicalHash(tool), /^sha256:[0-9a-f]{64}$/);
  });

  it('definitionHash sees every field, and numbers in canonical form (1.0 is 1)', () => {
    assert.notEqual(definitionHash(tool), definitionHash({ ...tool, title: 'Other' }));
    const a = JSON.parse('{"name":"t","inputSchema":{"maximum":1.0}}') as Tool;
    const b = JSON.parse('{"inputSchema":{"maximum":1},"name":"t"}') as Tool;
    assert.equal(definitionHash(a), definitionHash(b));
  });
});
