import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { Caller } from '../tools/index.ts';
import { authenticate, type Authentication } from './auth.ts';
import { logRequestError } from './log.ts';
import { skillSources } from '../skill/index.ts';
import { buildMcpServer, type McpDeps } from './mcp.ts';

/**
 * Serves MCP over stdio with the same tiers as HTTP. The token (WARDEN_TOKEN) is
 * checked at start — a bad one stops the process loudly instead of serving the
 * anonymous tier — and again on every request, so a revocation, suspension or a
 * narrowed mandate takes effect mid-connection.
 */
export async function startStdio(
  deps: McpDeps,
  token: string | undefined,
): Promise<{ handle: StdioServerHandle; first: Authentication }> {
  skillSources(); // a skill source out of form stops the start, as over HTTP
  const header = token === undefined || token === '' ? undefined : `Bearer ${token}`;
  const now = deps.now ?? (() => new Date());
  const first = await authenticate(deps.store, header, now());
  if (first.kind === 'rejected') return { handle: { close: async () => {} }, first };
  // The caller as last resolved: what a new protocol instance states at its start.
  let latest = first.caller;
  const resolve = async (): Promise<Caller> => {
    const auth = await authenticate(deps.store, header, now());
    if (auth.kind === 'rejected') {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Unauthorized: ${auth.message}`);
    }
    latest = auth.caller;
    return auth.caller;
  };
  const handle = serveStdio(() => buildMcpServer(deps, resolve, latest), {
    onerror: (err) => logRequestError(deps.logger, 'stdio_error', err),
  });
  return { handle, first };
}

/**
 * When stdio cannot serve at all (a rejected WARDEN_TOKEN, no store), a client
 * would otherwise see only "Connection closed" and the reason would sit on stderr,
 * which most desktop clients hide. So, before exiting, answer each request the client
 * sends (initialize, or server/discover first in the 2026 era, then its fallback) with
 * a JSON-RPC error carrying the reason, which clients show. Bounded: at most four
 * requests, 64 KiB of input, and `timeoutMs`; it returns when the client hangs up.
 */
export async function refuseOverStdio(
  message: string,
  input: NodeJS.ReadableStream & { destroy?: () => void },
  write: (line: string) => void,
  timeoutMs = 10_000,
): Promise<void> {
  let buffered = '';
  let total = 0;
  let answered = 0;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      input.removeListener('data', onData);
      input.removeListener('end', done);
      input.removeListener('close', done);
      input.removeListener('error', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const onData = (chunk: Buffer | string) => {
      const text = chunk.toString();
      total += text.length;
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const id = requestId(line);
        if (id === undefined) continue;
        write(
          JSON.stringify({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InvalidRequest, message } }) +
            '\n',
        );
        if (++answered >= 4) return done();
      }
      if (total > 64 * 1024) done();
    };
    input.on('data', onData);
    input.once('end', done);
    input.once('close', done);
    input.once('error', done);
  });
  input.destroy?.();
}

/** The id of a JSON-RPC request on this line; undefined for notifications, responses and junk. */
function requestId(line: string): string | number | undefined {
  try {
    const m = JSON.parse(line) as unknown;
    if (typeof m !== 'object' || m === null || typeof (m as { method?: unknown }).method !== 'string')
      return undefined;
    const id = (m as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
