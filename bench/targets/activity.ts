// Benchmark target: Warden as bench/targets/warden.ts starts it, with its activity record
// on (`on`, as served) or off (`off`: the store's recordActivity does nothing), so the
// cost of recording every tools/call is measured side by side.
// Prints {"url", "token"} as one JSON line on stdout once it listens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { startHttpServer, silentLogger } from '../../src/server/index.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';

const store = await openStore(
  process.argv[3] ?? join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'bench.db'),
);
if (process.argv[2] === 'off') store.recordActivity = () => Promise.resolve();
const registry = buildRegistry();
const handle = `bench${process.pid}`;
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
  // Throughput is the measure here: per-caller rate limits and the record bucket off (0 = unlimited).
  rateLimits: {
    token: { perSecond: 0, burst: 1 },
    anonymous: { perSecond: 0, burst: 1 },
    record: { perSecond: 0, burst: 1 },
  },
});
process.stdout.write(JSON.stringify({ url: server.mcpUrl, token }) + '\n');
process.on(
  'SIGTERM',
  () =>
    void server
      .close()
      .then(() => store.close())
      .then(() => process.exit(0)),
);
