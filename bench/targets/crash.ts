// Benchmark target for the crash rounds (bench/activity-crash.ts): Warden serving the store
// at argv[2] (a SQLite file or a postgres:// URL) as `warden serve` would, with a member
// named argv[3] and a full token of theirs, the token's rate and record buckets off (the
// load is the point). Prints {"url", "token"} once it listens; the bench kills it with
// SIGKILL mid-load.
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { DEFAULT_RATE_LIMITS, startHttpServer, silentLogger } from '../../src/server/index.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';

const [location, handle] = process.argv.slice(2);
if (!location || !handle) throw new Error('usage: crash.ts <store> <handle>');
const store = await openStore(location);
const registry = buildRegistry();
await addPrincipal(store, handle, { status: 'member' });
const { token } = await issueAgentToken(store, registry, handle, {
  scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
});
const server = await startHttpServer({
  store,
  registry,
  logger: silentLogger,
  version: 'bench',
  port: 0,
  rateLimits: {
    token: { perSecond: 0, burst: 1 },
    anonymous: DEFAULT_RATE_LIMITS.anonymous,
    record: { perSecond: 0, burst: 1 },
  },
});
process.stdout.write(JSON.stringify({ url: server.mcpUrl, token }) + '\n');
