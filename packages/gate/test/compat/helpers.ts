import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'compat');

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

const compiled = new Map<string, ValidateFunction>();
const instances = new Map<string, Ajv>();

/** An Ajv of the test's own (default, optimised settings), independent of the library's, to check witnesses. */
export function independentValidator(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  const draft07 =
    typeof schema === 'object' &&
    schema !== null &&
    /draft-0[67]\//.test(String((schema as { $schema?: unknown }).$schema ?? ''));
  const is2019 = /2019-09/.test(String((schema as { $schema?: unknown } | null)?.$schema ?? ''));
  const kind = draft07 ? 'draft-07' : is2019 ? '2019-09' : '2020-12';
  let ajv = instances.get(kind);
  if (!ajv) {
    const options = { strict: false, logger: false } as const;
    ajv = draft07 ? new Ajv(options) : is2019 ? new Ajv2019(options) : new Ajv2020(options);
    // Draft-06 is read as draft-07, its meta-schema added (as Ajv's documentation shows).
    if (draft07) ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
    addFormats(ajv);
    instances.set(kind, ajv);
  }
  const fn = ajv.compile(schema as object);
  compiled.set(key, fn);
  return fn;
}

/**
 * The batch both proxy transports are sent under 2025-03-26: a call of the withheld tool
 * `search`, a notification, a call of the allowed `greet`, and a tools/list.
 */
/** The published SARIF 2.1.0 schema (draft-04), read as draft-07: its only draft-04 trait is `id`. */
export function sarifValidator(): ValidateFunction {
  const schema = readJson<Record<string, unknown>>(path.join(FIXTURES, 'sarif', 'sarif-2.1.0-rtm.5.json'));
  delete schema.id;
  schema.$schema = 'http://json-schema.org/draft-07/schema#';
  // The schema's language pattern is not a valid Unicode-mode regex; it is meant for plain RegExp.
  const ajv = new Ajv({ strict: false, logger: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

export const MIXED_BATCH = [
  { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'search', arguments: { limit: 1.5 } } },
  { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
  { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'greet', arguments: { who: 'ann' } } },
  { jsonrpc: '2.0', id: 'c', method: 'tools/list' },
];

/**
 * Checks the answer to MIXED_BATCH: one answer per request with ids kept (JSON-RPC leaves their
 * order free), the withheld call refused by the proxy naming its rule, the rest the server's.
 * Returns the answers by id for the transport's own checks.
 */
export function assertMixedBatchAnswered(answer: unknown): Map<unknown, Record<string, unknown>> {
  assert.ok(Array.isArray(answer), 'a batch is answered by one array');
  const messages = answer as Record<string, unknown>[];
  const byId = new Map(messages.map((m) => [m.id, m]));
  assert.equal(messages.length, 3);
  assert.deepEqual([...byId.keys()].sort(), ['a', 'b', 'c']);
  const refused = byId.get('a')?.error as { code: number; message: string; data: Record<string, string> };
  assert.equal(refused.code, -32602);
  assert.equal(refused.message, 'Unknown tool: search');
  assert.equal(refused.data.code, 'tool_withheld');
  assert.equal(refused.data.rule, 'type-narrowed');
  assert.match(String(refused.data.reason), /^search: breaking change against the lock \(type-narrowed: /);
  const listed = (byId.get('c')?.result as { tools: { name: string }[] }).tools;
  assert.deepEqual(listed.map((t) => t.name).sort(), ['fresh', 'greet']);
  return byId;
}

/**
 * The manifests both gate proxy suites serve: the lock is taken from PINNED, the server serves
 * LIVE. search's description changed (compatible) before its limit narrowed (breaking), so a
 * note must name the break, not the first finding; greet gained an optional property
 * (compatible); fresh is new.
 */
export const PINNED = [
  {
    name: 'search',
    description: 'Search',
    inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'number' } } },
  },
  { name: 'greet', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } },
];
export const LIVE = [
  {
    name: 'search',
    description: 'Search the catalogue',
    inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
  },
  {
    name: 'greet',
    inputSchema: { type: 'object', properties: { who: { type: 'string' }, loud: { type: 'boolean' } } },
  },
  { name: 'fresh', inputSchema: { type: 'object' } },
];

/**
 * What an agent sees through either gate proxy with a real client: the withheld tool is not
 * listed, the allowed one answers (the server's text for it given), the withheld one is refused.
 */
export async function assertGateWithholds(
  client: {
    listTools(): Promise<{ tools: { name: string }[] }>;
    callTool(req: { name: string; arguments: Record<string, unknown> }): Promise<{ content?: unknown }>;
  },
  greeted: string,
): Promise<void> {
  const listed = await client.listTools();
  assert.deepEqual(listed.tools.map((t) => t.name).sort(), ['fresh', 'greet']);
  const ok = await client.callTool({ name: 'greet', arguments: { who: 'ann' } });
  assert.deepEqual(ok.content, [{ type: 'text', text: greeted }]);
  await assert.rejects(
    client.callTool({ name: 'search', arguments: { q: 'x', limit: 1.5 } }),
    /Unknown tool: search/,
  );
}

/** The recording assertGateWithholds leaves: both calls, the refused one included, in order. */
export function assertRecorded(calls: string): void {
  const recorded = fs
    .readFileSync(calls, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
  assert.deepEqual(recorded, [
    { tool: 'greet', arguments: { who: 'ann' } },
    { tool: 'search', arguments: { q: 'x', limit: 1.5 } },
  ]);
}
