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
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      AS_SENT,
      timeoutMs ? { timeout: timeoutMs } : undefined,
    )) as { tools?: unknown; nextCursor?: unknown } | null;
    if (!result || typeof result !== 'object' || !Array.isArray(result.tools))
      throw new Error('the tools/list result has no "tools" array');
    tools.push(...(result.tools as unknown[]));
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return tools;
}

/** An error as one short line: SDK and validation errors can run to dozens of lines. */
export function briefError(err: unknown, max = 240): string {
  const text = err instanceof Error ? err.message : String(err);
  const first = text.split('\n').find((l) => l.trim() !== '') ?? text;
  const more = text.includes('\n') ? ' …' : '';
  const line = `${first.trim()}${more}`;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
