// What the Warden bench targets share: a store with one member holding a full token, served
// over HTTP on a free port, announced as one JSON line {"url", "token"} on stdout.
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { startHttpServer, silentLogger, type RunningServer } from '../../src/server/index.ts';
import type { Store } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';

/** A bucket that never empties (0 = unlimited): throughput, not the limits, is the measure. */
export const UNLIMITED = { perSecond: 0, burst: 1 };

type Options = Omit<
  Parameters<typeof startHttpServer>[0],
  'store' | 'registry' | 'logger' | 'version' | 'port'
>;

/** Adds `handle` (and any `peers`) as members, issues `handle` a full token, serves, and prints {"url", "token"}. */
export async function serveMember(
  store: Store,
  handle: string,
  options: Options & { peers?: readonly string[] } = {},
): Promise<RunningServer> {
  const { peers = [], ...serve } = options;
  const registry = buildRegistry();
  for (const h of [handle, ...peers]) await addPrincipal(store, h, { status: 'member' });
  const { token } = await issueAgentToken(store, registry, handle, {
    scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
  });
  const server = await startHttpServer({
    rateLimits: { token: UNLIMITED, anonymous: UNLIMITED, record: UNLIMITED },
    ...serve,
    store,
    registry,
    logger: silentLogger,
    version: 'bench',
    port: 0,
  });
  process.stdout.write(JSON.stringify({ url: server.mcpUrl, token }) + '\n');
  return server;
}
