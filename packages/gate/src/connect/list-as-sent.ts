import type { Client, StandardSchemaV1 } from '@modelcontextprotocol/client';

/**
 * A result schema that accepts whatever the server sent. The SDK's own `tools/list` schema
 * rejects a whole page for one tool that is not valid MCP (an `inputSchema` without
 * `"type": "object"`), so a gate built on `listTools()` could never pin such a server; the
 * gate reads the page as sent and judges conformance itself, tool by tool.
 */
const AS_SENT: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'warden', validate: (value) => ({ value }) },
};

const MAX_PAGES = 1000;

/** Every page of `tools/list` as the server sent it (the handshake is still the SDK's). */
export async function listToolsAsSent(client: Client, timeoutMs?: number): Promise<unknown[]> {
  return listAsSent(client, 'tools/list', 'tools', timeoutMs);
}

/** One request answered as sent (no SDK result schema between the server and the gate). */
export async function requestAsSent(
  client: Client,
  method: string,
  params: Record<string, unknown>,
  timeoutMs?: number,
): Promise<unknown> {
  return client.request({ method, params } as never, AS_SENT, timeoutMs ? { timeout: timeoutMs } : undefined);
}

/** Every page of a paginated list method (`prompts/list`, `skills/list`…), its items as sent. */
export async function listAsSent(
  client: Client,
  method: string,
  field: string,
  timeoutMs?: number,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await requestAsSent(client, method, cursor ? { cursor } : {}, timeoutMs)) as Record<
      string,
      unknown
    > | null;
    const list = result && typeof result === 'object' ? result[field] : undefined;
    if (!Array.isArray(list)) throw new Error(`the ${method} result has no "${field}" array`);
    items.push(...(list as unknown[]));
    cursor =
      typeof result?.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return items;
}

/** An error as one short line: SDK and validation errors can run to dozens of lines. */
export function briefError(err: unknown, max = 240): string {
  const text = err instanceof Error ? err.message : String(err);
  const first = text.split('\n').find((l) => l.trim() !== '') ?? text;
  const more = text.includes('\n') ? ' …' : '';
  const line = `${first.trim()}${more}`;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
