// Baseline (a): a bare SDK v2 server built the documented way — createMcpHandler with a
// per-request factory registering the same 14 tools (same JSON Schemas) — and no auth.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { TIER_CEILING } from '../../src/core/tiers.ts';
import { buildRegistry } from '../../src/tools/index.ts';

const registry = buildRegistry();
const tools = registry.list(new Set(TIER_CEILING.member));

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'baseline', version: '1.0.0' });
  for (const t of tools) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: fromJsonSchema(structuredClone(t.inputSchema)),
      },
      async () => ({ content: [{ type: 'text', text: '{"name":"Warden club"}' }] }),
    );
  }
  return server;
});
const node = toNodeHandler(handler);
const http = createServer((req, res) => void node(req, res));
http.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` }) + '\n');
});
process.on('SIGTERM', () => http.close(() => process.exit(0)));
