// npm run bench (rate-limit part): what the shared mode (--shared-rate-limits, buckets in
// the store) costs per request against per-replica buckets in memory, side by side in one
// run: the same member's tools/list over loopback, one request at a time, interleaved.
// SQLite always; PostgreSQL too when WARDEN_BENCH_PG is set. Rates are high enough that
// no request is refused: this measures the take, not the refusal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { addPrincipal } from '../src/admin/principals.ts';
import { issueAgentToken } from '../src/admin/tokens.ts';
import { startHttpServer, silentLogger, type RunningServer } from '../src/server/index.ts';
import type { Store } from '../src/store/contract.ts';
import { openStore } from '../src/store/index.ts';
import { buildRegistry } from '../src/tools/index.ts';
import { freshSchema } from './scale-pg.ts';
import { pct } from './scale.ts';

const SAMPLES = Number(process.env['BENCH_RATE_SAMPLES'] ?? 600);
const HIGH = { perSecond: 1e9, burst: 1e9 };

async function time(url: string, token: string, id: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`tools/list: HTTP ${res.status}`);
  return performance.now() - started;
}

async function compare(name: string, store: Store): Promise<string> {
  const registry = buildRegistry();
  await addPrincipal(store, 'bench', { status: 'member' });
  const { token } = await issueAgentToken(store, registry, 'bench', { scopes: 'consult,inbox' });
  const base = {
    store,
    registry,
    logger: silentLogger,
    version: 'bench',
    port: 0,
    rateLimits: { token: HIGH, anonymous: HIGH },
  };
  const servers: [string, RunningServer][] = [
    ['per replica (memory)', await startHttpServer(base)],
    ['shared (store)', await startHttpServer({ ...base, sharedRateLimits: true })],
  ];
  const ms = new Map<string, number[]>(servers.map(([k]) => [k, []]));
  try {
    for (let i = -30; i < SAMPLES; i++)
      for (const [k, s] of servers) {
        const t = await time(s.mcpUrl, token, i);
        if (i >= 0) ms.get(k)!.push(t);
      }
  } finally {
    for (const [, s] of servers) await s.close();
  }
  const [mem, shared] = servers.map(([k]) => ms.get(k)!);
  const row = (k: string, xs: number[]) =>
    `| ${name} | ${k} | ${pct(xs, 50).toFixed(2)} | ${pct(xs, 99).toFixed(2)} |`;
  return [
    row('per replica (memory)', mem!),
    row('shared (store)', shared!),
    `| ${name} | shared / per replica | ${(pct(shared!, 50) / pct(mem!, 50)).toFixed(2)}× | ${(pct(shared!, 99) / pct(mem!, 99)).toFixed(2)}× |`,
  ].join('\n');
}

export async function benchRateLimits(): Promise<string> {
  const out = [
    `Rate-limit buckets: ${SAMPLES} sequential tools/list per mode, interleaved; milliseconds over loopback.`,
    '',
    '| store | buckets | p50 | p99 |',
    '|---|---|---|---|',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-rate-'));
  try {
    const sqlite = await openStore(join(dir, 'rate.db'));
    try {
      out.push(await compare('SQLite', sqlite));
    } finally {
      await sqlite.close();
    }
    const pgUrl = process.env['WARDEN_BENCH_PG'];
    if (pgUrl) {
      const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
      const { url, schema } = await freshSchema(admin, pgUrl);
      const store = await openStore(url);
      try {
        out.push(await compare('PostgreSQL', store));
      } finally {
        await store.close();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchRateLimits()) + '\n');
}
