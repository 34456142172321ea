// Benchmark target: Warden itself on a fresh SQLite file, one member with a full token.
// Prints {"url", "token"} as one JSON line on stdout once it listens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { startHttpServer, silentLogger } from '../../src/server/index.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';

const store = await openStore(join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'bench.db'));
const registry = buildRegistry();
await addPrincipal(store, 'bench', { status: 'member' });
await addPrincipal(store, 'peer', { status: 'member' });
const { token } = await issueAgentToken(store, registry, 'bench', {
  scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
});
// `sdk-path` as argument: the same server with the fast path off, every request through the SDK.
const fastPath = process.argv[2] !== 'sdk-path';
const server = await startHttpServer({
  store,
  registry,
  logger: silentLogger,
  version: 'bench',
  port: 0,
  fastPath,
  // Throughput is the measure here: per-caller rate limits and the record bucket off (0 = unlimited).
  rateLimits: {
    token: { perSecond: 0, burst: 1 },
    anonymous: { perSecond: 0, burst: 1 },
    record: { perSecond: 0, burst: 1 },
  },
});
process.stdout.write(JSON.stringify({ url: server.mcpUrl, token }) + '\n');
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
