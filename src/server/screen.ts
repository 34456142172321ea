import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { nestsDeeperThan, tooDeep } from './depth.ts';

/**
 * What the HTTP edge checks in a POSTed body before anything parses it for real:
 * nesting depth (a cheap stall otherwise; depth.ts), JSON syntax, batches under revisions that
 * removed them, and the params a method cannot do without. Each refusal is a
 * JSON-RPC error a client can read; none reaches a handler.
 */

/** Revisions that removed JSON-RPC batching (2025-06-18 and every later one). */
const NO_BATCH_REVISIONS = new Set(['2025-06-18', '2025-11-25', '2026-07-28']);

export type Screened =
  { ok: true; message: unknown } | { ok: false; status: number; body: Record<string, unknown> };

type Headers = Record<string, string | string[] | undefined>;

export function screenPost(headers: Headers, raw: Buffer): Screened {
  if (nestsDeeperThan(raw)) return { ok: false, status: 400, body: tooDeep() };
  let message: unknown;
  try {
    message = JSON.parse(raw.toString('utf8'));
  } catch {
    return reject(400, -32700, 'Parse error: Invalid JSON');
  }
  if (Array.isArray(message)) {
    const revision = noBatchRevision(headers, message);
    if (revision) {
      return reject(
        400,
        -32600,
        `Invalid Request: this is a JSON-RPC batch, and MCP revision ${revision} has no batches (they were removed in 2025-06-18). Send each message in its own POST.`,
      );
    }
    return { ok: true, message };
  }
  const missing = missingParams(message);
  if (missing) return { ok: false, status: 200, body: rpcError(missing.id, -32602, missing.message) };
  return { ok: true, message };
}

function reject(status: number, code: number, message: string): Screened {
  return { ok: false, status, body: rpcError(null, code, message) };
}

function rpcError(id: unknown, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The batch-free revision a batch claims, from the header or any element's own claim; null if none. */
function noBatchRevision(headers: Headers, batch: unknown[]): string | null {
  const header = headers['mcp-protocol-version'];
  if (typeof header === 'string' && NO_BATCH_REVISIONS.has(header)) return header;
  for (const element of batch) {
    const params = objectAt(element, 'params');
    const claims = [objectAt(params, '_meta')?.[PROTOCOL_VERSION_META_KEY], params?.['protocolVersion']];
    for (const claim of claims) if (typeof claim === 'string' && NO_BATCH_REVISIONS.has(claim)) return claim;
  }
  return null;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A request to a method that cannot do without its params, answered in a sentence
 * naming what is missing (instead of a validation library's dump).
 */
function missingParams(message: unknown): { id: unknown; message: string } | null {
  if (!isObject(message) || message['jsonrpc'] !== '2.0' || !('id' in message)) return null;
  const id = message['id'];
  const method = message['method'];
  const params = message['params'];
  if (method !== 'tools/call' && method !== 'initialize') return null;
  const say = (text: string) => ({ id, message: `Invalid params: ${text}` });
  if (method === 'tools/call') {
    const shape =
      'an object naming the tool in "name" (a string) with its arguments in "arguments" (an object)';
    if (params === undefined) return say(`tools/call needs params, ${shape}; this request has no params.`);
    if (!isObject(params)) return say(`tools/call needs params to be ${shape}.`);
    if (typeof params['name'] !== 'string')
      return say(`tools/call needs params.name, the name of the tool to call, as a string.`);
    if (params['arguments'] !== undefined && !isObject(params['arguments']))
      return say(`params.arguments of tools/call must be an object of the tool's arguments by name.`);
  }
  if (method === 'initialize') {
    const shape =
      'an object with "protocolVersion" (a string), "capabilities" (an object) and "clientInfo" ({"name", "version"})';
    if (params === undefined) return say(`initialize needs params, ${shape}; this request has no params.`);
    if (!isObject(params)) return say(`initialize needs params to be ${shape}.`);
    const absent = [
      typeof params['protocolVersion'] === 'string' ? null : 'protocolVersion (a string)',
      isObject(params['capabilities']) ? null : 'capabilities (an object)',
      isObject(params['clientInfo']) &&
      typeof params['clientInfo']['name'] === 'string' &&
      typeof params['clientInfo']['version'] === 'string'
        ? null
        : 'clientInfo (an object with "name" and "version" strings)',
    ].filter((x): x is string => x !== null);
    if (absent.length) return say(`initialize params lack ${absent.join(', ')}.`);
  }
  return null;
}
