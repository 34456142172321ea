import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Page cursors: opaque to callers, tamper-evident to the server. A cursor names
 * the tool it pages, the caller it was issued to, a digest of the arguments that
 * chose the list, and the sort key of the last row returned; an HMAC over all of
 * it, under a secret every replica shares, makes any change detectable. A cursor
 * only says where a page starts: what the caller may see is decided again on every
 * call, so no cursor can widen it.
 */

const VERSION = 1;
const MAC_BYTES = 16;

export interface CursorBinding {
  tool: string;
  /** Who may use it: a token, a principal, or "anonymous". */
  caller: string;
  /** The arguments that select the list (not limit or cursor), as plain JSON. */
  args: Record<string, unknown>;
}

export type OpenedCursor = { ok: true; key: string[] } | { ok: false; reason: string };

export function signCursor(secret: Buffer, binding: CursorBinding, key: string[]): string {
  const payload = Buffer.from(
    JSON.stringify([VERSION, binding.tool, binding.caller, argsDigest(binding.args), key]),
  ).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** Checks a cursor against what this call is: the same tool, caller and arguments. */
export function openCursor(secret: Buffer, cursor: string, expected: CursorBinding): OpenedCursor {
  const dot = cursor.indexOf('.');
  const payload = dot > 0 ? cursor.slice(0, dot) : '';
  const given = Buffer.from(dot > 0 ? cursor.slice(dot + 1) : '', 'base64url');
  const wanted = Buffer.from(mac(secret, payload), 'base64url');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    return {
      ok: false,
      reason: 'The cursor was not issued by this club, or was altered after it was.',
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 5 ||
    parsed[0] !== VERSION ||
    !Array.isArray(parsed[4]) ||
    !(parsed[4] as unknown[]).every((k) => typeof k === 'string')
  ) {
    return { ok: false, reason: 'The cursor is of a form this server no longer reads.' };
  }
  const [, tool, caller, digest, key] = parsed as [number, string, string, string, string[]];
  if (tool !== expected.tool) {
    return { ok: false, reason: `The cursor pages ${tool}, not ${expected.tool}.` };
  }
  if (caller !== expected.caller) {
    return { ok: false, reason: 'The cursor was issued to another caller; cursors are not transferable.' };
  }
  if (digest !== argsDigest(expected.args)) {
    return {
      ok: false,
      reason: `The cursor belongs to a ${tool} call with other arguments; a cursor continues the same list only.`,
    };
  }
  return { ok: true, key };
}

function mac(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, MAC_BYTES).toString('base64url');
}

/** A short digest of the list-selecting arguments, keys sorted so their order does not matter. */
function argsDigest(args: Record<string, unknown>): string {
  const sorted = Object.keys(args)
    .filter((k) => args[k] !== undefined)
    .sort()
    .map((k) => [k, args[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest().subarray(0, 9).toString('base64url');
}
