// npm run bench -- activity-crash: is every acknowledged tools/call on the Activity record
// after a kill -9? Per round: a Warden child process serves the store (SQLite file, and
// PostgreSQL when WARDEN_BENCH_PG or WARDEN_TEST_PG names a database), this process loads
// it with file_evidence calls on CONCURRENCY connections, each call's claim naming it; after
// a random spell of load the child gets SIGKILL, mid-request. The store is then opened
// again (as a restart opens it) and the principal's record read: every call whose answer
// arrived complete must be there. The next round's child starts on the same store.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { forHumans } from '../src/untrusted/index.ts';
import { PgSchemas } from '../test/store/pg-schemas.ts';
import { mcpHeaders, spawnTarget } from './load.ts';

const ROUNDS = Number(process.env['BENCH_CRASH_ROUNDS'] ?? 20);
const LOAD_MS = Number(process.env['BENCH_CRASH_MS'] ?? 1000);
const CONCURRENCY = Number(process.env['BENCH_CRASH_CONNECTIONS'] ?? 16);

export interface Round {
  acknowledged: number;
  recorded: number;
  missing: number;
  /** Recorded, but its answer never arrived: in flight at the kill (allowed). */
  unanswered: number;
}

async function worker0(url: string, headers: Record<string, string>): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'tools/call',
    params: { name: 'club_info', arguments: {} },
  });
  await (await fetch(url, { method: 'POST', headers, body })).text();
}

/** One round on `location`: load, SIGKILL after `loadMs`, then compare. */
async function round(location: string, handle: string, loadMs: number): Promise<Round> {
  const target = await spawnTarget('crash', join(import.meta.dirname, 'targets', 'crash.ts'), [
    location,
    handle,
  ]);
  const acknowledged = new Set<string>();
  let killed = false;
  let next = 0;
  const worker = async () => {
    while (!killed) {
      const claim = `${handle}-${next++}`;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: next,
        method: 'tools/call',
        params: { name: 'file_evidence', arguments: { origin: 'manual', claim } },
      });
      try {
        const res = await fetch(target.url, { method: 'POST', headers: mcpHeaders(target), body });
        const text = await res.text();
        const answer = JSON.parse(text) as { result?: { isError?: boolean } };
        if (res.status === 200 && answer.result && !answer.result.isError) acknowledged.add(claim);
      } catch {
        return; // the server is gone: this call was never acknowledged
      }
    }
  };
  // One call answered first, so the spell of load is load, not the child warming up.
  await worker0(target.url, mcpHeaders(target));
  const workers = Array.from({ length: CONCURRENCY }, worker);
  await new Promise((r) => setTimeout(r, loadMs));
  killed = true;
  target.child.kill('SIGKILL');
  await Promise.all(workers);
  await new Promise((r) =>
    target.child.exitCode !== null || target.child.signalCode ? r(null) : target.child.once('exit', r),
  );

  const store = await openStore(location);
  try {
    const p = await store.getPrincipalByHandle(handle);
    const recorded = new Set<string>();
    let after: number | undefined;
    for (;;) {
      const page = await store.pageActivity(p!.id, {}, { limit: 500, ...(after ? { after } : {}) });
      for (const row of page) {
        const m = /claim: "([^"]+)"/.exec(row.summary ? forHumans(row.summary, Number.MAX_SAFE_INTEGER) : '');
        if (m) recorded.add(m[1]!);
      }
      if (page.length < 500) break;
      after = page.at(-1)!.seq;
    }
    const missing = [...acknowledged].filter((c) => !recorded.has(c)).length;
    const unanswered = [...recorded].filter((c) => !acknowledged.has(c)).length;
    return { acknowledged: acknowledged.size, recorded: recorded.size, missing, unanswered };
  } finally {
    await store.close();
  }
}

/** `rounds` kill -9 rounds on one store; the load lasts from half to 1.5 times `loadMs` each. */
export async function crashRounds(location: string, rounds: number, loadMs = LOAD_MS): Promise<Round[]> {
  const out: Round[] = [];
  const run = randomBytes(3).toString('hex');
  for (let i = 0; i < rounds; i++)
    out.push(await round(location, `crash${run}r${i}`, loadMs * (0.5 + Math.random())));
  return out;
}

function report(name: string, rounds: Round[]): string {
  const sum = (f: (r: Round) => number) => rounds.reduce((a, r) => a + f(r), 0);
  return `${name.padEnd(11)} ${String(rounds.length).padStart(6)}  ${String(sum((r) => r.acknowledged)).padStart(12)}  ${String(sum((r) => r.missing)).padStart(7)}  ${String(Math.max(...rounds.map((r) => r.missing))).padStart(9)}  ${String(sum((r) => r.unanswered)).padStart(10)}`;
}

export async function benchActivityCrash(): Promise<string> {
  const lines = [
    `kill -9 mid-load: ${ROUNDS} rounds per store, ${CONCURRENCY} connections of file_evidence calls, ${LOAD_MS / 2000}–${(LOAD_MS * 1.5) / 1000} s of load a round`,
    '',
    'store        rounds  acknowledged  missing  max/round  unanswered (in flight at the kill, recorded)',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'warden-crash-'));
  try {
    lines.push(report('SQLite', await crashRounds(join(dir, 'crash.db'), ROUNDS)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pgUrl = process.env['WARDEN_BENCH_PG'] ?? process.env['WARDEN_TEST_PG'];
  if (pgUrl) {
    const schemas = new PgSchemas(pgUrl);
    try {
      lines.push(report('PostgreSQL', await crashRounds(await schemas.fresh(), ROUNDS)));
    } finally {
      await schemas.dropAll();
    }
  } else lines.push('PostgreSQL  (skipped: set WARDEN_BENCH_PG to a database URL)');
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchActivityCrash()) + '\n');
}
