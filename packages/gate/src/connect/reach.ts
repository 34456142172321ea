// Connecting to one server as its client would, reading everything it serves, and, when that
// fails, one line saying why: the failure explained with what the child process or the HTTP
// response left behind.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { explainFailure, keepChallenge, type ExplainContext } from './explain.ts';
import type { JsonRecord } from './json.ts';
import { readServer } from './read-server.ts';
import { launchStdio, type LaunchedStdio } from './stdio.ts';

/** A server to reach: a URL with its headers, or a command speaking MCP on stdio. */
export type Reachable =
  | { kind: 'http'; url: string; headers: Record<string, string> }
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string };

/** A server that could not be read; the message is one line naming the cause. */
export class ReachError extends Error {}

/** Every request gets this long unless the caller says otherwise. */
const TIMEOUT_MS = 60_000;

/**
 * Reads everything the server serves (see readServer). Never throws anything but a ReachError
 * whose message explains the failure; the connection and any child are closed either way.
 */
export async function reachAndRead(
  target: Reachable,
  client: { name: string; version: string },
  timeoutMs = TIMEOUT_MS,
): Promise<JsonRecord> {
  const sdk = new Client(client, { versionNegotiation: { mode: 'auto' } });
  const ctx: ExplainContext = { timeoutMs };
  let launched: LaunchedStdio | undefined;
  let challenge: (() => string | undefined) | undefined;
  let transport;
  if (target.kind === 'http') {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new ReachError(`not a URL: ${target.url}`);
    }
    const kept = keepChallenge();
    challenge = kept.challenge;
    ctx.url = target.url;
    ctx.headers = target.headers;
    transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: target.headers },
      fetch: kept.fetch,
    });
  } else {
    launched = launchStdio(inOwnGroup(target));
    ctx.secrets = Object.values(target.env ?? {});
    transport = launched.transport;
  }
  try {
    await sdk.connect(transport, { timeout: timeoutMs });
    return await readServer(sdk, timeoutMs);
  } catch (err) {
    if (launched) ctx.stdio = await launched.settled();
    const said = challenge?.();
    if (said) ctx.challenge = said;
    throw new ReachError(explainFailure(err, ctx));
  } finally {
    await sdk.close().catch(() => undefined);
  }
}

/**
 * The launcher that gives a server its own process group (POSIX; see process-group.js): beside
 * `src/` in the sources, at the top of `dist/` in the bundle, whichever file this code is in.
 */
const GROUP_LAUNCHER = ['../process-group.js', './process-group.js']
  .map((p) => fileURLToPath(new URL(p, import.meta.url)))
  .find((p) => existsSync(p));

/**
 * The stdio target, started through the process-group launcher where process groups exist, so
 * closing the connection stops the server and everything it started (an `npx` child, a shell's).
 */
function inOwnGroup(target: Extract<Reachable, { kind: 'stdio' }>): Extract<Reachable, { kind: 'stdio' }> {
  if (process.platform === 'win32' || !GROUP_LAUNCHER) return target;
  return { ...target, command: process.execPath, args: [GROUP_LAUNCHER, target.command, ...target.args] };
}
