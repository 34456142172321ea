// Benchmark target: Warden with its console on a fresh SQLite file, three members signed
// in, whose agents made 10 calls, 30 (one full page) and 10,000. Prints one JSON line on
// stdout once it listens: the page's URL, each member's session cookie, and the URL of a
// page deep in the 10,000.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeLoginLink } from '../../src/admin/console-links.ts';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { createConsole } from '../../src/console/index.ts';
import { startHttpServer, silentLogger } from '../../src/server/index.ts';
import type { NewActivity, TokenRecord } from '../../src/store/contract.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';

const port = await new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as { port: number }).port;
    s.close(() => resolve(p));
  });
});
const base = `http://localhost:${port}`;
const store = await openStore(join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'bench.db'));
const registry = buildRegistry();
const now = () => new Date();

/** A member whose agents made `calls` calls, over the last hour, a tenth of them refused. */
async function member(handle: string, calls: number): Promise<void> {
  const p = await addPrincipal(store, handle, { status: 'member' });
  const tokens: TokenRecord[] = [];
  for (let i = 0; i < 3; i++)
    tokens.push(
      (await issueAgentToken(store, registry, handle, { scopes: 'inbox', label: `agent ${i}` })).record,
    );
  const start = Date.now() - 3_600_000;
  const all: NewActivity[] = Array.from({ length: calls }, (_, n) => ({
    principalId: p.id,
    tokenId: tokens[n % 3]!.id,
    tool: n % 10 ? 'list_questions' : 'ask_agent',
    outcome: n % 10 ? 'done' : 'refused',
    code: n % 10 ? null : 'not_found',
    decisionId: null,
    summary: `status: "open", limit: 20, n: ${n}`,
    at: new Date(start + (n * 3_600_000) / calls).toISOString(),
  }));
  for (let i = 0; i < all.length; i += 1000) await store.recordActivity(all.slice(i, i + 1000));
}
await member('few', 10);
await member('page', 30);
await member('many', 10_000);

const server = await startHttpServer({
  store,
  registry,
  logger: silentLogger,
  version: 'bench',
  port,
  publicUrl: base,
  console: createConsole({ store, registry, now }),
});

async function cookie(handle: string): Promise<string> {
  const link = new URL((await makeLoginLink(store, handle, { publicUrl: base, now: now() })).url);
  const res = await fetch(`${base}/console/link`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ t: link.searchParams.get('t')! }).toString(),
  });
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

// Where the page after the 9,970 newest calls starts: the last page but one.
const many = (await store.getPrincipalByHandle('many'))!;
const deep = await store.pageActivity(many.id, {}, { limit: 9_970, newestFirst: true });
const last = deep[deep.length - 1]!;
process.stdout.write(
  JSON.stringify({
    url: `${base}/console/activity`,
    deepUrl: `${base}/console/activity?${new URLSearchParams({ after: String(last.seq) }).toString()}`,
    few: await cookie('few'),
    page: await cookie('page'),
    many: await cookie('many'),
  }) + '\n',
);
process.on(
  'SIGTERM',
  () =>
    void server
      .close()
      .then(() => store.close())
      .then(() => process.exit(0)),
);
