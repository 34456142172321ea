import type { CallToolResult } from '@modelcontextprotocol/server';
import type { JsonObject } from '../core/json.ts';
import type { Refusal } from '../core/refusal.ts';
import { echo, UNTRUSTED_NOTICE } from '../untrusted/index.ts';

/**
 * Tool results as the model reads them. The text content is the JSON of the
 * structured content (so wrapped member text appears with its boundary markers in
 * both views), preceded by a notice whenever the result carries member text.
 */
export function renderOk(data: JsonObject): CallToolResult {
  const json = JSON.stringify(data);
  const lines = [json];
  if (json.includes('"untrusted":"member-text"')) lines.unshift(UNTRUSTED_NOTICE);
  if (data['status'] === 'queued_for_principal') lines.unshift(queuedLine(data));
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: data };
}

/**
 * A queued request is not an error (nothing failed; it waits for the principal), so
 * its result is a success that validates against the tool's outputSchema. Its text
 * still opens with what happened, why and what to do, in words, for clients that
 * show only the text.
 */
function queuedLine(data: JsonObject): string {
  return `Queued for your principal (${String(data['reason_code'])}): ${String(data['reason'])}\nNext: ${String(data['next'])}`;
}

/** Where a refusal travels as data, beside the text: a `_meta` key every client keeps. */
const REFUSAL_META_KEY = 'warden/refusal';

/**
 * A refusal: `isError`, with its stable code, the reason and the next step stated in
 * the text and given as data under `_meta["warden/refusal"]` — never as
 * `structuredContent`. The official SDK 1.x client (and the Inspector built on it)
 * validates any `structuredContent` against the tool's `outputSchema` even when
 * `isError` is set, and throws away the result when it does not match; SDK 2.x and
 * the Python SDK skip that check on errors, and all three require no structured
 * content on an error. Leaving it out keeps every output schema to the success shape
 * (the lean tools/list) and lets every client read the refusal. See docs/interop.md.
 */
export function renderRefusal(r: Refusal): CallToolResult {
  const lines = [`Refused (${r.code}): ${r.reason}\nNext: ${r.next}`];
  if (r.detail) {
    // Detail may cite member text (wrapped): then the notice comes first, as for any result.
    const json = JSON.stringify(r.detail);
    if (json.includes('"untrusted":"member-text"')) lines.unshift(UNTRUSTED_NOTICE);
    lines.push(json);
  }
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    _meta: {
      [REFUSAL_META_KEY]: {
        code: r.code,
        reason: r.reason,
        next: r.next,
        ...(r.detail ? { detail: r.detail } : {}),
      },
    },
  };
}

/** The JSON-RPC error message for a tool the caller cannot call: word for word the SDK's for a name it never registered. */
export function unknownToolMessage(name: string): string {
  return `Tool ${echo(name)} not found`;
}
