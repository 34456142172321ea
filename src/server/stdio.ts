import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { Caller } from '../tools/index.ts';
import { authenticate, type Authentication } from './auth.ts';
import { logSdkError } from './log.ts';
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
  const header = token === undefined || token === '' ? undefined : `Bearer ${token}`;
  const now = deps.now ?? (() => new Date());
  const first = await authenticate(deps.store, header, now());
  if (first.kind === 'rejected') return { handle: { close: async () => {} }, first };
  const resolve = async (): Promise<Caller> => {
    const auth = await authenticate(deps.store, header, now());
    if (auth.kind === 'rejected') {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Unauthorized: ${auth.message}`);
    }
    return auth.caller;
  };
  const handle = serveStdio(() => buildMcpServer(deps, resolve), {
    onerror: (err) => logSdkError(deps.logger, 'stdio_error', err),
  });
  return { handle, first };
}
