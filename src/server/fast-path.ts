import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import type { Registry } from '../core/registry.ts';
import type { Caller, ToolContext } from '../tools/index.ts';
import { callToolAs } from './call.ts';
import type { McpDeps } from './mcp.ts';
import { unknownToolMessage } from './render.ts';

/**
 * The hot path for the two requests agents make all day, tools/list and tools/call.
 *
 * The SDK's per-request serving builds a protocol instance, a transport and web
 * streams for every HTTP request; that, not HTTP, is what costs (see `npm run bench`).
 * Warden already owns tool dispatch (registry → policy → handler), so for a request
 * that is unambiguously a well-formed single tools/list or tools/call of a revision we
 * serve, it writes the same JSON-RPC response the SDK writes, from descriptors
 * serialised once per scope set. Everything else — initialize, server/discover,
 * notifications, GET/DELETE, anything malformed or unusual — goes to the SDK. A
 * differential test holds the two paths to the same answers.
 */

const LEGACY_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);
const MODERN_VERSION = '2026-07-28';

type Era = 'legacy' | 'modern';

export interface FastRequest {
  era: Era;
  id: string | number;
  method: 'tools/list' | 'tools/call';
  name?: string;
  arguments?: unknown;
}

type Headers = Record<string, string | string[] | undefined>;

const header = (h: Headers, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? undefined : v;
};

/** Recognises a request the fast path may answer; anything doubtful returns null (→ SDK). */
export function classifyFast(headers: Headers, message: unknown): FastRequest | null {
  if (!(header(headers, 'content-type') ?? '').toLowerCase().startsWith('application/json')) return null;
  const accept = header(headers, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const m = message as Record<string, unknown>;
  const keys = Object.keys(m);
  if (m['jsonrpc'] !== '2.0' || keys.some((k) => !['jsonrpc', 'id', 'method', 'params'].includes(k)))
    return null;
  const id = m['id'];
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return null;
  const method = m['method'];
  if (method !== 'tools/list' && method !== 'tools/call') return null;
  const params = m['params'];
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return null;
  const p = (params ?? {}) as Record<string, unknown>;
  const allowed = method === 'tools/list' ? ['_meta'] : ['_meta', 'name', 'arguments'];
  // cursor, task, … → the SDK (it refuses a tools/list cursor with −32602: mcp.ts).
  if (Object.keys(p).some((k) => !allowed.includes(k))) return null;

  const version = header(headers, 'mcp-protocol-version');
  const meta = p['_meta'];
  if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) return null;
  const metaVersion = (meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
  let era: Era;
  if (
    version === MODERN_VERSION &&
    metaVersion === MODERN_VERSION &&
    header(headers, 'mcp-method') === method
  )
    era = 'modern';
  else if (version !== undefined && LEGACY_VERSIONS.has(version) && metaVersion === undefined) era = 'legacy';
  else return null;

  if (method === 'tools/list') return { era, id, method };
  const name = p['name'];
  if (typeof name !== 'string') return null;
  if (era === 'modern' && header(headers, 'mcp-name') !== name) return null;
  const args = p['arguments'];
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return null;
  return { era, id, method, name, arguments: args };
}

/**
 * A response body in two parts: bytes made once and shared by every request that gets
 * them (the tools/list of one view and era, up to its id), then the text made for this
 * request (the id that ends a tools/list, or a whole tools/call response).
 */
export interface FastBody {
  shared: Buffer | null;
  own: string;
}

/** The fast path's answer: at once for tools/list, after the tool ran for tools/call. */
export type FastPath = (req: FastRequest, caller: Caller) => FastBody | Promise<FastBody>;

/**
 * Builds the fast path over compiled descriptors. A tools/list answer is the bytes of one
 * response per view and era, made once, followed by the id that ends it: the list of tools
 * is neither serialised, encoded nor copied again per request (encoding a 14 KB string
 * cost more than all the rest the edge does for it, and a copy per request fed the GC).
 */
export function createFastPath(deps: McpDeps): FastPath {
  const registry: Registry<ToolContext> = deps.registry;
  const serverInfo = { name: 'warden', version: deps.version };
  const metaJson = JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo });
  /** Per view (the registry memoises views by scope set): the response up to its id, per era. */
  const listHeads = new WeakMap<object, Partial<Record<Era, Buffer>>>();

  const envelope = (id: string | number, resultJson: string) =>
    `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

  const listHead = (view: object, era: Era): Buffer => {
    let heads = listHeads.get(view);
    if (heads === undefined) listHeads.set(view, (heads = {}));
    let head = heads[era];
    if (head === undefined) {
      const tools = JSON.stringify(view);
      const result =
        era === 'modern'
          ? `{"tools":${tools},"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":${metaJson}}`
          : `{"tools":${tools}}`;
      head = heads[era] = Buffer.from(`{"result":${result},"jsonrpc":"2.0","id":`);
    }
    return head;
  };

  const list = (req: FastRequest, caller: Caller): FastBody => ({
    shared: listHead(registry.list(caller.permissions.effective), req.era),
    own: `${typeof req.id === 'number' ? req.id : JSON.stringify(req.id)}}`,
  });

  const call = async (req: FastRequest, caller: Caller): Promise<FastBody> => {
    const rendered = await callToolAs(deps, caller, req.name!, req.arguments);
    if (!rendered) {
      const error = { code: ProtocolErrorCode.InvalidParams, message: unknownToolMessage(req.name!) };
      return { shared: null, own: JSON.stringify({ jsonrpc: '2.0', id: req.id, error }) };
    }
    const result =
      req.era === 'modern'
        ? // The SDK's stamp: any _meta of the result first, then the server's info.
          {
            ...rendered,
            resultType: 'complete',
            _meta: { ...rendered._meta, [SERVER_INFO_META_KEY]: serverInfo },
          }
        : rendered;
    return { shared: null, own: envelope(req.id, JSON.stringify(result)) };
  };

  return (req, caller) => (req.method === 'tools/list' ? list(req, caller) : call(req, caller));
}
