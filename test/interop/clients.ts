import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from 'mcp-sdk-v1/client/index.js';
import { StdioClientTransport as StdioV1 } from 'mcp-sdk-v1/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from 'mcp-sdk-v1/client/streamableHttp.js';

/**
 * The MCP clients people run, each behind one small interface, so the matrix can
 * ask every one the same questions. Each adapter reads a tool result the way a
 * program using that client would: the SDKs' own `callTool` (with its output-schema
 * validation, after `listTools` primed it), and the Inspector's CLI as a process
 * whose stdout is the JSON it prints.
 */

export const BIN = join(import.meta.dirname, '../../bin/warden.js');

export type Transport = 'http' | 'stdio';

export interface Target {
  transport: Transport;
  /** The MCP endpoint, for HTTP. */
  url: string;
  /** The store file, for stdio (WARDEN_DB). */
  db: string;
  token?: string;
}

export interface Refusal {
  code: string;
  reason: string;
  next: string;
}

/** A tool result as the caller's code sees it. */
export interface Outcome {
  isError: boolean;
  text: string;
  structured: unknown;
  /** The refusal as data, where the client hands it over (`_meta["warden/refusal"]`). */
  refusal: Refusal | undefined;
}

export interface Session {
  listTools(): Promise<string[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<Outcome>;
  close(): Promise<void>;
}

export interface ClientKind {
  name: string;
  /** How many calls the matrix may have in flight at once. */
  parallel: number;
  /**
   * Over stdio, the only tools the matrix calls (each tier calls those it lists), where
   * the client reads a result the same way whatever the transport, so calling every tool
   * over HTTP and these few over stdio proves what calling them all over stdio would.
   * Absent: every tool, over both transports.
   */
  stdioTools?: readonly string[];
  open(target: Target): Promise<Session>;
}

interface RawResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

function toOutcome(r: RawResult): Outcome {
  const content = Array.isArray(r.content) ? (r.content as { type: string; text?: string }[]) : [];
  return {
    isError: r.isError === true,
    text: content.map((c) => c.text ?? '').join('\n'),
    structured: r.structuredContent,
    refusal: r._meta?.['warden/refusal'] as Refusal | undefined,
  };
}

function stdioEnv(target: Target): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', WARDEN_DB: target.db };
  if (target.token) env['WARDEN_TOKEN'] = target.token;
  return env;
}

/** `warden stdio` serves the anonymous tier only when asked to (--anonymous). */
const stdioArgs = (target: Target): string[] => [BIN, 'stdio', ...(target.token ? [] : ['--anonymous'])];

const authHeaders = (token: string | undefined): Record<string, string> =>
  token ? { Authorization: `Bearer ${token}` } : {};

/** The official TypeScript SDK 1.x client (npm `latest` of @modelcontextprotocol/sdk). */
export const sdkV1: ClientKind = {
  name: 'SDK 1.x',
  parallel: 4,
  async open(target) {
    const client = new ClientV1({ name: 'matrix-v1', version: '1.0.0' });
    await client.connect(
      target.transport === 'http'
        ? new HttpV1(new URL(target.url), { requestInit: { headers: authHeaders(target.token) } })
        : new StdioV1({
            command: process.execPath,
            args: stdioArgs(target),
            env: stdioEnv(target),
            stderr: 'pipe',
          }),
    );
    return {
      listTools: async () => (await client.listTools()).tools.map((t) => t.name),
      callTool: async (name, args) =>
        toOutcome((await client.callTool({ name, arguments: args })) as RawResult),
      close: () => client.close(),
    };
  },
};

/** The SDK v2 client, 2025 era (initialize) or 2026-07-28 (negotiated). */
function sdkV2(era: 'legacy' | 'modern'): ClientKind {
  return {
    name: era === 'modern' ? 'SDK 2.x, 2026-07-28' : 'SDK 2.x, 2025-11-25',
    parallel: 4,
    async open(target) {
      const client = new ClientV2(
        { name: 'matrix-v2', version: '1.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      await client.connect(
        target.transport === 'http'
          ? new HttpV2(new URL(target.url), { requestInit: { headers: authHeaders(target.token) } })
          : new StdioV2({
              command: process.execPath,
              args: stdioArgs(target),
              env: stdioEnv(target),
              stderr: 'pipe',
            }),
      );
      return {
        listTools: async () => (await client.listTools()).tools.map((t) => t.name),
        callTool: async (name, args) =>
          toOutcome((await client.callTool({ name, arguments: args })) as RawResult),
        close: () => client.close(),
      };
    },
  };
}

export const sdkV2Legacy = sdkV2('legacy');
export const sdkV2Modern = sdkV2('modern');

const exec = promisify(execFile);
const INSPECTOR_BUILD = dirname(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/build/index.js'),
);

/**
 * The MCP Inspector's CLI mode (`--cli`, i.e. inspector-cli's build/index.js), one
 * process per method as a person or a script runs it. It is built on SDK 1.x: it
 * lists the tools before a call, so the 1.x output-schema check is armed.
 *
 * Over stdio each call starts an Inspector and a Warden, so the matrix calls only a few
 * tools there. What stdio changes for the Inspector is how it connects (it starts the
 * server with its environment and the flags after "--"): the arguments it converts from
 * the tool's input schema, the SDK 1.x `callTool` and the JSON it prints are the same
 * code over both transports, and every tool's call is proven over HTTP. Every tool's
 * answer over stdio is proven by the SDK rows, SDK 1.x (the version the Inspector runs)
 * among them. Over stdio: the tools/list of each tier, and at each tier a success and a
 * refusal of the tools below that it sees — a domain refusal each, with arguments to
 * convert, a write on success (evidence), a queued request (the review).
 */
export const inspectorCli: ClientKind = {
  name: 'Inspector CLI',
  // Two processes per call over stdio (the Inspector and a Warden): keep it gentle on a small machine.
  parallel: 2,
  stdioTools: ['get_profile', 'file_evidence', 'review_candidate'],
  async open(target) {
    const run = async (extra: string[]): Promise<unknown> => {
      const targetArgs =
        target.transport === 'http'
          ? [target.url, '--transport', 'http', ...headerArgs(target.token)]
          : [process.execPath, BIN, 'stdio', '--transport', 'stdio'];
      // Flags of the server itself go after "--" (the Inspector would take them for its own).
      const serverFlags = stdioArgs(target).slice(2);
      const argv = [
        join(INSPECTOR_BUILD, 'index.js'),
        ...targetArgs,
        ...extra,
        ...(target.transport === 'stdio' && serverFlags.length ? ['--', ...serverFlags] : []),
      ];
      const options = {
        // It finds its own package.json relative to the working directory: run it from its folder.
        cwd: INSPECTOR_BUILD,
        env: target.transport === 'stdio' ? { ...process.env, ...stdioEnv(target) } : process.env,
        timeout: 120_000,
        maxBuffer: 8 * 1024 * 1024,
      };
      let stdout: string;
      try {
        ({ stdout } = await exec(process.execPath, argv, options));
      } catch (err) {
        // One more try only when the process itself never got an answer (starved and
        // killed, or its connection dropped on a loaded machine); a wrong answer is
        // printed on stdout with exit 0 and is never retried.
        const e = err as { killed?: boolean; stderr?: string };
        if (!e.killed && !/fetch failed|Connection closed/.test(e.stderr ?? '')) throw err;
        ({ stdout } = await exec(process.execPath, argv, options));
      }
      return JSON.parse(stdout);
    };
    return {
      listTools: async () =>
        ((await run(['--method', 'tools/list'])) as { tools: { name: string }[] }).tools.map((t) => t.name),
      callTool: async (name, args) =>
        toOutcome(
          (await run([
            '--method',
            'tools/call',
            '--tool-name',
            name,
            ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${String(v)}`]),
          ])) as RawResult,
        ),
      close: async () => {},
    };
  },
};

function headerArgs(token: string | undefined): string[] {
  return Object.entries(authHeaders(token)).flatMap(([k, v]) => ['--header', `${k}: ${v}`]);
}

export const CLIENTS: ClientKind[] = [sdkV1, sdkV2Legacy, sdkV2Modern, inspectorCli];
