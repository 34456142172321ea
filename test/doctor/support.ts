import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';

export const BIN = join(import.meta.dirname, '../../bin/warden.js');
export const REPO = join(import.meta.dirname, '../..');

/** A fresh folder for configuration files, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a client configuration where that client keeps it (e.g. `.vscode/mcp.json`). */
export function writeConfig(dir: string, relative: string, content: unknown): string {
  const file = join(dir, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

export interface DoctorRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `warden doctor …` in-process, through the CLI's dispatcher, with captured output. */
export async function doctor(
  args: string[],
  env: Record<string, string | undefined> = {},
  isTty = false,
): Promise<DoctorRun> {
  const io = { ...bufferIo(env), isTty };
  const code = await main(['doctor', ...args], io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

export interface JsonServer {
  name: string;
  url: string | null;
  tier: string | null;
  tools: number | null;
  total: number | null;
  reasons: string[];
  ok: boolean;
  status: string;
  transport: string;
  server: string | null;
  protocol: string | null;
  server_info: { name: string; version: string } | null;
  capabilities: string[] | null;
  protected_resource_metadata: boolean | null;
  tool_names: string[];
  skills:
    | {
        name: string;
        uri: string | null;
        digest: string | null;
        files: number | null;
        verified: boolean;
        problem: string | null;
      }[]
    | null;
  would_add: string[];
  references: {
    field: string;
    text: string;
    kind: string;
    name: string;
    resolved: boolean;
    literal: boolean;
  }[];
  checks: { id: string; ok: boolean | null; message: string; details?: string[] }[];
  not_checked: string[];
  fix: string | null;
}

/** Runs the doctor with --json and returns its one server's report. */
export async function doctorJson(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; server: JsonServer; all: JsonServer[] }> {
  const run = await doctor([...args, '--json'], env);
  let parsed: { servers: JsonServer[] };
  try {
    parsed = JSON.parse(run.out) as { servers: JsonServer[] };
  } catch {
    // Say what the doctor did say, so a failure here explains itself.
    throw new Error(
      `doctor --json exited ${run.code} without a JSON report; stdout: ${run.out || '(empty)'}; stderr: ${run.err || '(empty)'}`,
    );
  }
  const server = parsed.servers[0];
  if (!server) throw new Error(`no server in: ${run.out}${run.err}`);
  return { code: run.code, server, all: parsed.servers };
}

/** A loopback port that nothing listens on: bound, read, closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface OtherServer {
  url: string;
  close(): Promise<void>;
}

/** An MCP server that is not Warden: two tools, no /tiers, no /diagnose, no metadata. */
export async function startOtherServer(): Promise<OtherServer> {
  return serveMcp(() => {
    const server = new McpServer({ name: 'weather-station', version: '3.1.4' });
    server.registerTool('forecast', { description: 'Tomorrow’s weather.' }, async () => ({
      content: [{ type: 'text', text: 'sunny' }],
    }));
    server.registerTool('alerts', { description: 'Active weather alerts.' }, async () => ({
      content: [{ type: 'text', text: 'none' }],
    }));
    return server;
  });
}

/** Serves the servers `build` makes at /mcp on loopback (404 elsewhere), one per request. */
export async function serveMcp(build: () => McpServer): Promise<OtherServer> {
  const handler = createMcpHandler(build);
  const node = toNodeHandler(handler);
  const http: Server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/mcp')) return void node(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await handler.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
