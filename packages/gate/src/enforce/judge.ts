import { type Enforcer, unknownToolError } from './enforcer.ts';
import type { GateRefusalCode } from './refusals.ts';

/** The MCP revisions whose JSON-RPC allows a batch (an array of messages); 2025-06-18 removed it. */
const BATCH_REVISIONS = new Set(['2024-11-05', '2025-03-26']);
/** Where a 2026-07-28 request names its revision (its per-request envelope). */
const VERSION_META = 'io.modelcontextprotocol/protocolVersion';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The revision a message names in its own envelope (2026-07-28 and later), if any. */
function claimedVersion(m: unknown): string | undefined {
  if (!isObject(m) || !isObject(m.params) || !isObject(m.params._meta)) return undefined;
  const v = m.params._meta[VERSION_META];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Whether a batch is legal under the revision in use: JSON-RPC batches exist up to 2025-03-26
 * only. A revision not known (no header, no initialize seen) is read as 2025-03-26, as the
 * specification tells servers to; an element that names a later revision in its envelope
 * decides for the whole batch.
 */
export function batchAllowed(version: string | undefined, elements: readonly unknown[]): string | undefined {
  const named = elements.map(claimedVersion).find((v) => v !== undefined) ?? version;
  return named === undefined || BATCH_REVISIONS.has(named) ? undefined : named;
}

/** The answer to a batch sent under a revision without batches: one clear error, nothing forwarded. */
export function batchRefused(version: string): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: `Invalid Request: JSON-RPC batches are not part of MCP ${version} (only revisions up to 2025-03-26 have them); send each message on its own`,
      data: {
        code: 'batch_not_supported' satisfies GateRefusalCode,
        reason: `a JSON-RPC batch was sent under MCP ${version}, which has no batches; nothing in it was forwarded`,
        next: 'send each message on its own',
      },
    },
  };
}

/** The answer JSON-RPC gives to a batch element that is no message at all, or to an empty batch. */
export function invalidRequest(message = 'Invalid Request'): Record<string, unknown> {
  return { jsonrpc: '2.0', id: null, error: { code: -32600, message } };
}

export interface Judged {
  /** Answers the proxy gives itself (refused calls, invalid elements), in the order met. */
  answered: Record<string, unknown>[];
  /** Messages that go on to the server, in the order met. */
  forwarded: Record<string, unknown>[];
  /** Ids of the tools/list requests among them: their answers are filtered. */
  lists: unknown[];
  /** Ids of the forwarded requests: the server owes an answer to each. */
  requests: unknown[];
}

/**
 * One message or the elements of a batch, judged alike on every transport: each tools/call is
 * recorded, then refused here when the gate withholds its tool (the server never sees it);
 * tools/list requests are noted so their answers can be filtered; everything else goes on.
 */
export function judgeMessages(
  messages: readonly unknown[],
  enforcer: Enforcer,
  record: (call: { tool: string; arguments: unknown }) => void,
): Judged {
  const out: Judged = { answered: [], forwarded: [], lists: [], requests: [] };
  for (const m of messages) {
    if (!isObject(m)) {
      out.answered.push(invalidRequest());
      continue;
    }
    const params = isObject(m.params) ? m.params : undefined;
    if (m.method === 'tools/call' && typeof params?.name === 'string') {
      // Recorded before the call is answered or forwarded, so the recording never lags the traffic.
      record({ tool: params.name, arguments: params.arguments ?? {} });
      const refusal = enforcer.refusal(params.name);
      if (refusal) {
        out.answered.push(unknownToolError(m.id, params.name, refusal));
        continue;
      }
    }
    if (m.method === 'tools/list' && m.id !== undefined) out.lists.push(m.id);
    if (typeof m.method === 'string' && m.id !== undefined) out.requests.push(m.id);
    out.forwarded.push(m);
  }
  return out;
}
