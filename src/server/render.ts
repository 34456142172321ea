import type { CallToolResult } from '@modelcontextprotocol/server';
import type { JsonObject } from '../core/json.ts';
import type { Refusal } from '../core/refusal.ts';
import { UNTRUSTED_NOTICE } from '../untrusted/index.ts';

/**
 * Tool results as the model reads them. The text content is the JSON of the
 * structured content (so wrapped member text appears with its boundary markers in
 * both views), preceded by a notice whenever the result carries member text.
 */
export function renderOk(data: JsonObject): CallToolResult {
  const json = JSON.stringify(data);
  const text = json.includes('"untrusted":"member-text"') ? `${UNTRUSTED_NOTICE}\n${json}` : json;
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** A refusal: isError, its stable code, the reason and the next step, in text and as data. */
export function renderRefusal(r: Refusal): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `Refused (${r.code}): ${r.reason}\nNext: ${r.next}` }],
    structuredContent: { refusal: { code: r.code, reason: r.reason, next: r.next } },
  };
}

/** The JSON-RPC error message for a tool the caller cannot call: word for word the SDK's for a name it never registered. */
export function unknownToolMessage(name: string): string {
  return `Tool ${name} not found`;
}
