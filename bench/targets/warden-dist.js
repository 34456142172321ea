// Benchmark target: Warden as shipped (the compiled dist/, `npm run build`), on a fresh SQLite
// file, one member with a full token. Prints {"url", "token"} as one JSON line once it listens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { addPrincipal } from '../../dist/admin/principals.js';
import { issueAgentToken } from '../../dist/admin/tokens.js';
import { startHttpServer, silentLogger } from '../../dist/server/index.js';
import { openStore } from '../../dist/store/index.js';
import { buildRegistry } from '../../dist/tools/index.js';

const store = await openStore(join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'bench.db'));
const registry = buildRegistry();
await addPrincipal(store, 'bench', { status: 'member' });
await addPrincipal(store, 'peer', { status: 'member' });
const { token } = await issueAgentToken(store, registry, 'bench', {
  scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
});
const server = await startHttpServer({
  store,
  registry,
  logger: silentLogger,
  version: 'bench',
  port: 0,
  // Throughput is the measure here: per-caller rate limits off (0 = unlimited).
  rateLimits: { token: { perSecond: 0, burst: 1 }, anonymous: { perSecond: 0, burst: 1 } },
});
process.stdout.write(JSON.stringify({ url: server.mcpUrl, token }) + '\n');
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
