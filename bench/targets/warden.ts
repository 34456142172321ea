// Benchmark target: Warden itself on a fresh SQLite file, one member with a full token.
// Prints {"url", "token"} as one JSON line on stdout once it listens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { serveMember } from './member-server.ts';

const store = await openStore(join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'bench.db'));
// `sdk-path` as argument: the same server with the fast path off, every request through the SDK.
const server = await serveMember(store, 'bench', {
  peers: ['peer'],
  fastPath: process.argv[2] !== 'sdk-path',
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
