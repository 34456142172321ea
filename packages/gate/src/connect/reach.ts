// Connecting to one server as its client would, reading everything it serves, and, when that
// fails, one line saying why: the failure explained with what the child process or the HTTP
// response left behind.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { explainFailure, keepChallenge, type ExplainContext } from './explain.ts';
import type { JsonRecord } from './json.ts';
import { readServer } from './read-server.ts';
import { groupLaunch } from './launch.ts';
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
  timeoutNext?: string,
): Promise<JsonRecord> {
  // The era probe of a stdio server runs on a sibling process before the session's (see the
  // SDK's negotiation), and a probe unanswered falls back to initialize on a fresh process: the
  // probe gets a third of the budget, and start, probe and initialize together one timeout
  // (withDeadline), so a server that never answers costs one timeout, not two, and one that
  // ignores the probe still has two thirds of it to answer initialize.
  const sdk = new Client(client, {
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: Math.max(1, Math.round(timeoutMs / 3)) } },
  });
  const ctx: ExplainContext = { timeoutMs, ...(timeoutNext ? { timeoutNext } : {}) };
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
    await withDeadline(sdk.connect(transport, { timeout: timeoutMs }), timeoutMs);
    return await readServer(sdk, timeoutMs);
  } catch (err) {
    // A server that failed is not owed a grace period: its whole process group is stopped now
    // (a graceful close would give it seconds more), and what it left behind is read after.
    launched?.stop();
    if (launched) ctx.stdio = await launched.settled();
    const said = challenge?.();
    if (said) ctx.challenge = said;
    throw new ReachError(explainFailure(err, ctx));
  } finally {
    await sdk.close().catch(() => undefined);
  }
}

/**
 * The stdio target, started through the process-group launcher where process groups exist, so
 * closing the connection stops the server and everything it started (an `npx` child, a shell's).
 */
function inOwnGroup(target: Extract<Reachable, { kind: 'stdio' }>): Extract<Reachable, { kind: 'stdio' }> {
  return { ...target, ...groupLaunch(target.command, target.args) };
}

/**
 * `work`, or a TimeoutError once `ms` have passed (the work is abandoned: the caller closes the
 * connection, which stops it).
 */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`no answer within ${ms} ms`);
      err.name = 'TimeoutError';
      reject(err);
    }, ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
