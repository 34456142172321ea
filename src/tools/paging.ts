import { openCursor, signCursor, type CursorBinding } from '../core/cursor.ts';
import type { Json, JsonObject, JsonSchema } from '../core/json.ts';
import { RefusalError } from '../core/refusal.ts';
import type { Store } from '../store/contract.ts';
import type { Caller, ToolContext } from './context.ts';
import { toolRefusal } from './result.ts';

/**
 * The one way a tool returns a list: a keyset page of at most `limit` rows, cut
 * early at an item boundary when the items would pass the result's byte budget,
 * and a signed cursor to continue from the last row returned.
 */

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** No tool result's text is larger than this. */
export const RESULT_BYTE_BUDGET = 64 * 1024;
/** What the items of one page may take: the budget less room for the notice, counts and cursor. */
const ITEM_BYTE_BUDGET = RESULT_BYTE_BUDGET - 4 * 1024;

/** The two inputs every list tool takes. */
export const pageInputs: Record<string, JsonSchema> = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  cursor: { type: 'string', maxLength: 1024 },
};

/** The output fields every paged result adds beside its list. */
export const pageOutputs: Record<string, JsonSchema> = {
  next_cursor: { type: 'string' },
  cut_at_byte_budget: { const: true },
};

export interface PageArgs {
  limit?: number;
  cursor?: string;
}

/** Who a cursor is issued to: the token (an agent), the principal in person, or anyone anonymous. */
function callerKey(caller: Caller): string {
  if (caller.kind === 'agent') return `token:${caller.token.id}`;
  if (caller.kind === 'principal') return `principal:${caller.principal.id}`;
  return 'anonymous';
}

const secrets = new WeakMap<Store, Promise<Buffer>>();

/** The store's cursor secret, read once per store and process (every replica reads the same row). */
function cursorSecret(store: Store): Promise<Buffer> {
  let secret = secrets.get(store);
  if (!secret) {
    secret = store.serverSecret('cursor').then((s) => Buffer.from(s, 'base64url'));
    secret.catch(() => secrets.delete(store));
    secrets.set(store, secret);
  }
  return secret;
}

export async function mintCursor(
  ctx: ToolContext,
  tool: string,
  args: Record<string, unknown>,
  key: string[],
): Promise<string> {
  return signCursor(await cursorSecret(ctx.store), { tool, caller: callerKey(ctx.caller), args }, key);
}

export interface PageSpec<R> {
  tool: string;
  /** The arguments that select the list, with defaults applied: a cursor continues only the same list. */
  args: Record<string, unknown>;
  /** Reads up to `limit` rows after the given key (undefined: from the start). */
  fetch: (after: string[] | undefined, limit: number) => Promise<R[] | Fetched<R>>;
  /** The sort key of a row, as the cursor carries it. */
  keyOf: (row: R) => string[];
  present: (row: R) => Json | Promise<Json>;
}

/**
 * Rows read by a bounded walk: when it stopped at its work bound before finding
 * `limit` rows, `resumeKey` is where the next page starts (this page may be short).
 */
interface Fetched<R> {
  rows: R[];
  resumeKey?: string[] | undefined;
}

export interface Page {
  items: Json[];
  /** next_cursor and cut_at_byte_budget, when they apply, to spread into the result. */
  meta: JsonObject;
}

/** Reads one page. A cursor that is not this caller's, this tool's and this list's is a refusal. */
export async function readPage<R>(ctx: ToolContext, page: PageArgs, spec: PageSpec<R>): Promise<Page> {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const binding: CursorBinding = { tool: spec.tool, caller: callerKey(ctx.caller), args: spec.args };
  let after: string[] | undefined;
  if (page.cursor !== undefined) {
    const opened = openCursor(await cursorSecret(ctx.store), page.cursor, binding);
    if (!opened.ok) {
      throw new RefusalError(
        toolRefusal(
          'invalid_cursor',
          opened.reason,
          `Call ${spec.tool} without a cursor to start the list again, and pass only the next_cursor it returns, with the same arguments.`,
        ),
      );
    }
    after = opened.key;
  }
  const fetched = await spec.fetch(after, limit + 1);
  const { rows, resumeKey }: Fetched<R> = Array.isArray(fetched) ? { rows: fetched } : fetched;
  const items: Json[] = [];
  let bytes = 0;
  let last: R | undefined;
  let cut = false;
  for (const row of rows.slice(0, limit)) {
    const item = await spec.present(row);
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    // Always at least one item, so a page always moves the cursor forward.
    if (items.length > 0 && bytes + size > ITEM_BYTE_BUDGET) {
      cut = true;
      break;
    }
    items.push(item);
    bytes += size;
    last = row;
  }
  const more = cut || rows.length > limit;
  const meta: JsonObject = {};
  const next = more && last !== undefined ? spec.keyOf(last) : resumeKey;
  if (next) meta['next_cursor'] = signCursor(await cursorSecret(ctx.store), binding, next);
  if (cut) meta['cut_at_byte_budget'] = true;
  return { items, meta };
}

/** A time-ordered row's key for a cursor, and back. */
export const timeKey = (at: string, id: string): string[] => [at, id];
export function parseTimeKey(key: string[] | undefined): { at: string; id: string } | undefined {
  if (key === undefined) return undefined;
  const [at, id] = key;
  return at !== undefined && id !== undefined ? { at, id } : undefined;
}
