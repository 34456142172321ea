import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import {
  startHttpServer,
  silentLogger,
  type RateLimits,
  type RunningServer,
} from '../../src/server/index.ts';
import type { Store } from '../../src/store/contract.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';

export const ALL_AGENT_SCOPES = 'profile:write,evidence:write,inbox,mandate:read,consult,vouch';
export const CANDIDATE_SCOPES = 'profile:write,evidence:write,inbox,mandate:read';

export type Era = 'legacy' | 'modern';

/** A real Warden over real HTTP on loopback, on a fresh SQLite file, with helpers to seed it. */
export interface TestClub {
  dir: string;
  store: Store;
  registry: ReturnType<typeof buildRegistry>;
  server: RunningServer;
  addMember(handle: string, scopes?: string): Promise<{ token: string; tokenId: string }>;
  addCandidate(handle: string, scopes?: string): Promise<{ token: string; tokenId: string }>;
  connect(token?: string, era?: Era): Promise<Client>;
  close(): Promise<void>;
}

/** A served club on loopback; `rateLimits` only for suites that must measure something else under a flood. */
export async function startClub(opts: { rateLimits?: RateLimits } = {}): Promise<TestClub> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-'));
  const store = await openStore(join(dir, 'club.db'));
  const registry = buildRegistry();
  const server = await startHttpServer({
    store,
    registry,
    logger: silentLogger,
    version: 'test',
    port: 0,
    ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
  });
  const clients: Client[] = [];
  const add = async (handle: string, status: 'member' | 'candidate', scopes: string) => {
    await addPrincipal(store, handle, { status, name: handle });
    const issued = await issueAgentToken(store, registry, handle, { scopes, label: `${handle}-agent` });
    return { token: issued.token, tokenId: issued.record.id };
  };
  return {
    dir,
    store,
    registry,
    server,
    addMember: (h, scopes = ALL_AGENT_SCOPES) => add(h, 'member', scopes),
    addCandidate: (h, scopes = CANDIDATE_SCOPES) => add(h, 'candidate', scopes),
    async connect(token, era = 'legacy') {
      const client = await connectClient(server.mcpUrl, token, era);
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => {});
      await server.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The official client of either protocol era: legacy runs initialize, modern negotiates 2026-07-28. */
export async function connectClient(url: string, token: string | undefined, era: Era): Promise<Client> {
  const client = new Client(
    { name: 'warden-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/**
 * Replaces a registered tool's handler with a counting wrapper, so a test can prove
 * a refused call never reached it.
 */
export function spyOnHandler(registry: ReturnType<typeof buildRegistry>, name: string): { calls: number } {
  const counter = { calls: 0 };
  const tool = registry.all().find((t) => t.spec.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const original = tool.spec.handler;
  tool.spec = {
    ...tool.spec,
    handler: async (args, ctx) => {
      counter.calls++;
      return original(args, ctx);
    },
  };
  return counter;
}

/** Raw JSON-RPC over HTTP (2025 era), for asserting on status codes and headers the SDK client hides. */
export async function rawPost(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body,
  });
}

type AnyClient = Awaited<ReturnType<TestClub['connect']>>;

/** Calls a tool that must succeed; returns its structured content. */
export async function ok<T = Record<string, unknown>>(
  client: AnyClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}

/** Calls a tool that must be refused; returns the refusal (code, reason, next). */
export async function refused(
  client: AnyClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; reason: string; next: string }> {
  const r = await client.callTool({ name, arguments: args });
  if (!r.isError) throw new Error(`${name} was not refused: ${JSON.stringify(r.structuredContent)}`);
  assert.equal(r.structuredContent, undefined, `${name}: a refusal carries no structuredContent`);
  const meta = r._meta as Record<string, unknown> | undefined;
  return meta?.['warden/refusal'] as { code: string; reason: string; next: string };
}

/** The raw text of a wrapped field, without its markers (for asserting what a member wrote arrived). */
export function unwrap(field: unknown): string {
  const f = field as { untrusted: string; text: string };
  assert.equal(f.untrusted, 'member-text');
  return f.text.replace(/^⟦member-text [^⟧]*⟧/, '').replace(/⟦\/member-text [^⟧]*⟧$/, '');
}
