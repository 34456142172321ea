// npm run bench (scale part): the same operations against an empty club and a club of
// 100,000 principals, 1,000,000 tokens, 1,000,000 questions and 100,000 evidence items,
// side by side in one run, over real HTTP on loopback, one request at a time (service
// latency, not queueing). SQLite always; PostgreSQL too when WARDEN_BENCH_PG is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signCursor } from '../src/core/cursor.ts';
import { startHttpServer, silentLogger, type RunningServer } from '../src/server/index.ts';
import type { SqlStore } from '../src/store/sql-store.ts';
import { buildRegistry } from '../src/tools/index.ts';
import { RESULT_BYTE_BUDGET } from '../src/tools/paging.ts';
import { bigPostgresClub } from './scale-pg.ts';
import { bigSqliteClub, emptyClub, OPEN, type Club } from './scale-data.ts';

const SAMPLES = Math.min(Number(process.env['BENCH_SCALE_SAMPLES'] ?? 400), OPEN / 2);
const P99_LIMIT_MS = 50;
const RATIO_LIMIT = 1.5;

interface Target {
  club: Club;
  server: RunningServer;
  deepCursor: string;
  answered: number;
}

type Op = {
  name: string;
  call: (t: Target, i: number) => { token?: string; method: string; params: unknown };
};

const OPS: Op[] = [
  { name: 'tools/list (member)', call: (t) => ({ token: t.club.token, method: 'tools/list', params: {} }) },
  {
    name: 'list_members, first page (anonymous)',
    call: () => ({ method: 'tools/call', params: { name: 'list_members', arguments: {} } }),
  },
  {
    name: 'list_members, page at row 90,000',
    call: (t) => ({
      method: 'tools/call',
      params: { name: 'list_members', arguments: { cursor: t.deepCursor } },
    }),
  },
  {
    name: 'list_members, query one handle',
    call: (t) => ({
      method: 'tools/call',
      params: { name: 'list_members', arguments: { query: t.club.deepHandle } },
    }),
  },
  {
    name: 'list_members, query "rust engin"',
    call: () => ({
      method: 'tools/call',
      params: { name: 'list_members', arguments: { query: 'rust engin' } },
    }),
  },
  {
    // Two broad words that never meet: the handle walk finds no page early (worst case).
    name: 'list_members, query "quiet bold"',
    call: () => ({
      method: 'tools/call',
      params: { name: 'list_members', arguments: { query: 'quiet bold' } },
    }),
  },
  {
    name: 'ask_agent',
    call: (t, i) => ({
      token: t.club.token,
      method: 'tools/call',
      params: { name: 'ask_agent', arguments: { to: 'peer', question: `Benchmark question ${i}?` } },
    }),
  },
  {
    name: 'list_questions (inbox)',
    call: (t) => ({
      token: t.club.token,
      method: 'tools/call',
      params: { name: 'list_questions', arguments: {} },
    }),
  },
  {
    name: 'answer_question',
    call: (t) => ({
      token: t.club.token,
      method: 'tools/call',
      params: {
        name: 'answer_question',
        arguments: { question_id: t.club.openQuestions[t.answered++], answer: 'Yes.' },
      },
    }),
  },
];

async function request(t: Target, op: Op, i: number): Promise<{ ms: number; bytes: number }> {
  const { token, method, params } = op.call(t, i);
  const started = performance.now();
  const res = await fetch(t.server.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: i, method, params }),
  });
  const body = (await res.json()) as {
    result?: { isError?: boolean; content?: { text: string }[] };
    error?: unknown;
  };
  const ms = performance.now() - started;
  if (res.status !== 200 || body.error || body.result?.isError)
    throw new Error(`${op.name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  const bytes = body.result?.content ? Buffer.byteLength(body.result.content[0]!.text) : 0;
  return { ms, bytes };
}

export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function target(club: Club, registry: ReturnType<typeof buildRegistry>): Promise<Target> {
  const server = await startHttpServer({
    store: club.store,
    registry,
    logger: silentLogger,
    version: 'bench',
    port: 0,
    rateLimits: { token: { perSecond: 0, burst: 1 }, anonymous: { perSecond: 0, burst: 1 } },
  });
  const secret = Buffer.from(await club.store.serverSecret('cursor'), 'base64url');
  const deepCursor = signCursor(
    secret,
    { tool: 'list_members', caller: 'anonymous', args: { accepting_questions_only: true } },
    [club.deepHandle],
  );
  return { club, server, deepCursor, answered: 0 };
}

async function compare(empty: Target, big: Target): Promise<{ lines: string[]; pass: boolean }> {
  const lines: string[] = [];
  let pass = true;
  for (const op of OPS) {
    const ms: Record<'empty' | 'big', number[]> = { empty: [], big: [] };
    let maxBytes = 0;
    for (let i = 0; i < 20; i++) {
      await request(empty, op, -i - 1);
      await request(big, op, -i - 1);
    }
    // Interleaved, so machine noise hits both stores alike.
    for (let i = 0; i < SAMPLES; i++) {
      for (const [key, t] of [
        ['empty', empty],
        ['big', big],
      ] as const) {
        const r = await request(t, op, i);
        ms[key].push(r.ms);
        maxBytes = Math.max(maxBytes, r.bytes);
      }
    }
    const [e50, e99, b50, b99] = [pct(ms.empty, 50), pct(ms.empty, 99), pct(ms.big, 50), pct(ms.big, 99)];
    const ok =
      b99 < P99_LIMIT_MS && b99 <= Math.max(e99 * RATIO_LIMIT, e99 + 1) && maxBytes <= RESULT_BYTE_BUDGET;
    pass &&= ok;
    lines.push(
      `| ${op.name} | ${e50.toFixed(2)} | ${e99.toFixed(2)} | ${b50.toFixed(2)} | ${b99.toFixed(2)} | ${(b99 / e99).toFixed(2)}× | ${maxBytes.toLocaleString('en')} | ${ok ? 'yes' : 'NO'} |`,
    );
  }
  return { lines, pass };
}

/** How the engine serves a two-word search whose words rarely meet: an intersection in the term index. */
async function plan(club: Club): Promise<string> {
  const sql = (club.store as SqlStore).sql;
  const range = `SELECT principal_id FROM principal_terms WHERE term >= 'quiet' AND term < 'quieu'
     INTERSECT SELECT principal_id FROM principal_terms WHERE term >= 'bold' AND term < 'bole'`;
  const join = sql.kind === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const query = `SELECT p.* FROM (${range}) m ${join} principals p ON p.id = m.principal_id
     WHERE p.status = 'member' AND p.accepts_questions = 1 ORDER BY p.handle LIMIT 21`;
  const rows = await sql.all(sql.kind === 'sqlite' ? `EXPLAIN QUERY PLAN ${query}` : `EXPLAIN ${query}`);
  return rows.map((r) => String(r['detail'] ?? r['QUERY PLAN'])).join(' / ');
}

export async function benchScale(
  log: (s: string) => void = (s) => process.stderr.write(s + '\n'),
): Promise<string> {
  const registry = buildRegistry();
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-empty-'));
  const out: string[] = [
    `Scale: ${SAMPLES} sequential requests per operation and store, interleaved; milliseconds over loopback HTTP.`,
    `Target: big-store p99 < ${P99_LIMIT_MS} ms and within ${RATIO_LIMIT}× the empty store's (or 1 ms of it), every result ≤ ${RESULT_BYTE_BUDGET.toLocaleString('en')} bytes of text.`,
  ];
  const backends: [string, () => Promise<Club>, () => Promise<Club>][] = [
    ['SQLite', () => emptyClub(dir, registry), () => bigSqliteClub(registry, log)],
  ];
  const pgUrl = process.env['WARDEN_BENCH_PG'];
  const pgClubs = pgUrl ? bigPostgresClub(pgUrl, registry, log) : null;
  if (pgClubs) backends.push(['PostgreSQL', pgClubs.empty, pgClubs.big]);
  let allPass = true;
  try {
    for (const [name, makeEmpty, makeBig] of backends) {
      log(`scale: preparing ${name}…`);
      const empty = await target(await makeEmpty(), registry);
      const big = await target(await makeBig(), registry);
      try {
        out.push(
          '',
          `${name}: empty club vs ${big.club.label}`,
          '',
          '| operation | empty p50 | empty p99 | 100k p50 | 100k p99 | p99 ratio | max result bytes | on target |',
          '|---|---|---|---|---|---|---|---|',
        );
        const { lines, pass } = await compare(empty, big);
        allPass &&= pass;
        out.push(...lines, '', `search plan at 100k (${name}): ${await plan(big.club)}`);
      } finally {
        for (const t of [empty, big]) {
          await t.server.close();
          await t.club.store.close();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await pgClubs?.cleanup();
  }
  out.push('', allPass ? 'Every operation on target.' : 'Some operations miss the target (NO above).');
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchScale()) + '\n');
}
