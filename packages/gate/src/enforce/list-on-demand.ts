import type { Enforcer } from './enforcer.ts';

/**
 * Listing on the agent's behalf. A call of a locked tool that no tools/list has shown through
 * the gate cannot be judged: its live definition was never compared with the lock. Rather than
 * refuse it (a host may call a tool it listed in an earlier session, or cached), the proxy asks
 * the server for its tools itself, judges them, and only then decides the call. The answer to
 * that listing is the proxy's own and never reaches the agent.
 */

/** Most pages read in one listing, so a server that pages forever cannot hold a call. */
const MAX_LIST_PAGES = 50;
/** Longest wait for one page unless told (`--timeout`); a listing that does not come leaves the call refused. */
export const LIST_PAGE_TIMEOUT_MS = 15_000;

/** One tools/list page as the transport got it, or undefined when it could not be had. */
export type ListPage = (cursor: string | undefined) => Promise<Record<string, unknown> | undefined>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The locked tools the messages call that no listing has judged yet. */
export function unjudgedCalls(messages: readonly unknown[], enforcer: Enforcer): string[] {
  const names: string[] = [];
  for (const m of messages) {
    if (!isObject(m) || m.method !== 'tools/call' || !isObject(m.params)) continue;
    const name = m.params.name;
    if (typeof name === 'string' && enforcer.needsListing(name)) names.push(name);
  }
  return names;
}

/**
 * The proxy's own tools/list request. Under 2026-07-28 each request carries its envelope in
 * `_meta`; the one of the call that prompted the listing is reused (its progress token aside).
 */
export function listRequest(id: string, cursor: string | undefined, messages: readonly unknown[]): unknown {
  const call = messages.find((m) => isObject(m) && m.method === 'tools/call' && isObject(m.params));
  const meta =
    isObject(call) && isObject(call.params) && isObject(call.params._meta) ? call.params._meta : undefined;
  const envelope = meta
    ? Object.fromEntries(Object.entries(meta).filter(([k]) => k !== 'progressToken'))
    : undefined;
  const params = { ...(cursor !== undefined ? { cursor } : {}), ...(envelope ? { _meta: envelope } : {}) };
  return { jsonrpc: '2.0', id, method: 'tools/list', ...(Object.keys(params).length > 0 ? { params } : {}) };
}

/** The result of an answer to the proxy's own request, if it is one with tools. */
export function listResult(answer: unknown): Record<string, unknown> | undefined {
  if (!isObject(answer) || !isObject(answer.result) || !Array.isArray(answer.result.tools)) return undefined;
  return answer.result;
}

/** Lists every page through the gate, so the enforcer has judged each tool; false if it could not. */
export async function listAll(page: ListPage, enforcer: Enforcer): Promise<boolean> {
  let cursor: string | undefined;
  for (let i = 0; i < MAX_LIST_PAGES; i++) {
    const result = await page(cursor);
    if (!result) return false;
    enforcer.filterResult(result);
    if (typeof result.nextCursor !== 'string' || result.nextCursor === '') {
      enforcer.listedEverything();
      return true;
    }
    cursor = result.nextCursor;
  }
  return false;
}

/** Numbers the proxy's own requests, in a space no agent would pick. */
let counter = 0;
export function ownId(): string {
  return `warden-gate-list-${process.pid}-${++counter}`;
}
