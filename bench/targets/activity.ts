// Benchmark target: Warden as bench/targets/warden.ts starts it, with its activity record
// on (`on`, as served) or off (`off`: the store's recordActivity does nothing), so the
// cost of recording every tools/call is measured side by side.
// Prints {"url", "token"} as one JSON line on stdout once it listens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { serveMember } from './member-server.ts';

const store = await openStore(
  process.argv[3] ?? join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'bench.db'),
);
if (process.argv[2] === 'off') store.recordActivity = () => Promise.resolve();
const server = await serveMember(store, `bench${process.pid}`);
process.on(
  'SIGTERM',
  () =>
    void server
      .close()
      .then(() => store.close())
      .then(() => process.exit(0)),
);
