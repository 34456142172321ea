// Scale benchmark data: a club of 100,000 principals, 1,000,000 tokens, 1,000,000
// questions and 100,000 evidence items, written with bulk inserts in transactions
// (SQLite) or generate_series (PostgreSQL). The SQLite store lives in the OS temp
// directory and is kept between runs (keyed by schema and generator version), so only
// the first run pays for generating it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changeMandate } from '../src/admin/mandate.ts';
import { addPrincipal } from '../src/admin/principals.ts';
import { issueAgentToken } from '../src/admin/tokens.ts';
import { defaultMandate } from '../src/core/mandate.ts';
import type { Registry } from '../src/core/registry.ts';
import type { Store } from '../src/store/contract.ts';
import { openStore } from '../src/store/index.ts';
import { mandateColumns } from '../src/store/rows.ts';
import { MIGRATIONS } from '../src/store/schema.ts';
import { termsOf } from '../src/store/search.ts';
import type { SqlStore } from '../src/store/sql-store.ts';
import type { SqliteExecutor } from '../src/store/sqlite/executor.ts';
import type { ToolContext } from '../src/tools/index.ts';

export const SIZE = {
  principals: 100_000,
  tokens: 1_000_000,
  questions: 1_000_000,
  evidence: 100_000,
};
/** Questions put to the benchmark's own principal, of which the first OPEN are still open. */
export const INBOX = 10_000;
export const OPEN = 2_000;
const GENERATOR_VERSION = 1;
/** Generated principals; the benchmark's two ("bench", "peer") are added through the admin API. */
const BULK = SIZE.principals - 2;

export interface Club {
  label: string;
  store: Store;
  /** A member's full agent token: unlimited questions a day, any counterpart. */
  token: string;
  /** Open questions to that member, oldest first, for answer_question. */
  openQuestions: string[];
  /** The handle at row 90,000 of list_members (or the last one, in a small club). */
  deepHandle: string;
}

const ADJ = [
  'quiet',
  'bold',
  'rusty',
  'agile',
  'curious',
  'steady',
  'patient',
  'sharp',
  'gentle',
  'brisk',
  'keen',
  'calm',
  'eager',
  'modest',
  'loud',
  'wry',
  'candid',
];
const NOUN = [
  'engineer',
  'sailor',
  'gardener',
  'writer',
  'painter',
  'teacher',
  'baker',
  'pilot',
  'doctor',
  'analyst',
  'builder',
  'chemist',
  'coder',
  'editor',
  'farmer',
  'geologist',
  'historian',
  'jurist',
  'linguist',
  'mason',
  'nurse',
  'optician',
  'potter',
];
const TOPIC = [
  'rust',
  'boats',
  'compilers',
  'databases',
  'bread',
  'kites',
  'maps',
  'music',
  'chess',
  'law',
  'soil',
  'glass',
  'clocks',
];

const handleOf = (i: number) => `p${String(i).padStart(6, '0')}`;
const principalId = (i: number) => `pr_${i.toString(16).padStart(16, '0')}`;
const statusOf = (i: number) => (i % 20 === 0 ? 'candidate' : i % 97 === 0 ? 'suspended' : 'member');
const headlineOf = (i: number) =>
  `${ADJ[i % ADJ.length]} ${NOUN[Math.floor(i / ADJ.length) % NOUN.length]}, into ${TOPIC[i % TOPIC.length]}`;
/** ISO time `seconds` after 2025-01-01, so generated rows are in the past and in order. */
const at = (seconds: number) => new Date(Date.UTC(2025, 0, 1) + seconds * 1000).toISOString();
/** A deterministic spread of indices (a multiplicative hash), so runs are comparable. */
const spread = (i: number, salt: number) => Number((BigInt(i) * 2654435761n + BigInt(salt)) % BigInt(BULK));

/** Adds the benchmark's own two principals, the member's token and its inbox. */
export async function addBenchPrincipals(store: Store, registry: Registry<ToolContext>) {
  await addPrincipal(store, 'bench', { status: 'member', name: 'Bench Mark' });
  await addPrincipal(store, 'peer', { status: 'member', name: 'Peer' });
  await changeMandate({ store, registry }, 'bench', { consultDaily: 'unlimited' });
  const { token } = await issueAgentToken(store, registry, 'bench', {
    scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
  });
  return token;
}

export async function openQuestionsOf(store: Store): Promise<string[]> {
  const bench = (await store.getPrincipalByHandle('bench'))!;
  const rows = await store.pageQuestions({ targetId: bench.id, status: 'open' }, { limit: OPEN });
  return rows.map((q) => q.id);
}

export async function deepHandle(store: Store): Promise<string> {
  const r = await (store as SqlStore).sql.get(
    `SELECT handle FROM principals WHERE status = 'member' AND accepts_questions = 1 ORDER BY handle LIMIT 1 OFFSET ?`,
    [89_999],
  );
  return r ? String(r['handle']) : 'peer';
}

/** A club with only the benchmark's two members and the same number of open questions to answer. */
export async function emptyClub(
  dir: string,
  registry: Registry<ToolContext>,
  location?: string,
): Promise<Club> {
  const store = await openStore(location ?? join(dir, 'empty.db'));
  const token = await addBenchPrincipals(store, registry);
  const bench = (await store.getPrincipalByHandle('bench'))!;
  const peer = (await store.getPrincipalByHandle('peer'))!;
  for (let i = 0; i < OPEN; i++)
    await store.createQuestion({ askerId: peer.id, targetId: bench.id, question: `Question ${i}?` });
  return { label: 'empty', store, token, openQuestions: await openQuestionsOf(store), deepHandle: 'peer' };
}

/** The 100k club on SQLite, generated once into the temp directory and reused. */
export async function bigSqliteClub(
  registry: Registry<ToolContext>,
  log: (s: string) => void,
): Promise<Club> {
  const dir = join(tmpdir(), 'warden-bench-scale');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `club-v${MIGRATIONS.length}.${GENERATOR_VERSION}.db`);
  const meta = `${file}.json`;
  if (!existsSync(file) || !existsSync(meta)) {
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    rmSync(`${partial}-wal`, { force: true });
    rmSync(`${partial}-shm`, { force: true });
    const started = Date.now();
    const store = await openStore(partial);
    fillSqlite((store as SqlStore).sql as SqliteExecutor, log);
    const token = await addBenchPrincipals(store, registry);
    await benchInbox(store);
    ((store as SqlStore).sql as SqliteExecutor).db.pragma('wal_checkpoint(TRUNCATE)');
    await store.close();
    renameSync(partial, file);
    writeFileSync(meta, JSON.stringify({ token }));
    log(`generated ${file} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } else log(`reusing ${file} (delete it to regenerate)`);
  const store = await openStore(file);
  const { token } = JSON.parse(readFileSync(meta, 'utf8')) as { token: string };
  return {
    label: '100k/1M (SQLite)',
    store,
    token,
    openQuestions: await openQuestionsOf(store),
    deepHandle: await deepHandle(store),
  };
}

/** The benchmark member's inbox: INBOX questions from generated members, the oldest OPEN still open. */
export async function benchInbox(store: Store) {
  const bench = (await store.getPrincipalByHandle('bench'))!;
  const sql = (store as SqlStore).sql;
  const stmts = [];
  for (let i = 0; i < INBOX; i++) {
    const open = i < OPEN;
    stmts.push({
      sql: `INSERT INTO questions (id, asker_id, target_id, question, answer, status, asked_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      params: [
        `q_b${i.toString(16).padStart(15, '0')}`,
        principalId(spread(i, 7)),
        bench.id,
        `Could your principal tell me about ${TOPIC[i % TOPIC.length]}? (${i})`,
        open ? null : 'Yes, gladly.',
        open ? 'open' : 'answered',
        at(1_000_000 + i * 60),
        open ? null : at(1_000_000 + i * 60 + 30),
      ],
    });
  }
  await sql.batch(stmts);
}

function fillSqlite(ex: SqliteExecutor, log: (s: string) => void): void {
  const db = ex.db;
  db.pragma('synchronous = OFF');
  const chunked = (label: string, n: number, insert: (i: number) => void) => {
    const t = Date.now();
    const step = 25_000;
    for (let from = 0; from < n; from += step) {
      db.transaction(() => {
        for (let i = from; i < Math.min(n, from + step); i++) insert(i);
      })();
    }
    log(`  ${label}: ${n.toLocaleString('en')} rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  const m = mandateColumns(defaultMandate());
  const principal = db.prepare(
    `INSERT INTO principals (id, handle, status, accepts_questions, display_name, headline, bio, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '', ?, ?)`,
  );
  const term = db.prepare(`INSERT INTO principal_terms (term, principal_id) VALUES (?, ?)`);
  const mandate = db.prepare(
    `INSERT INTO mandates (principal_id, scopes, consult_counterparts, consult_daily, reviews_need_approval, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  chunked('principals (+ mandates, search terms)', BULK, (i) => {
    const id = principalId(i);
    const name = `Member ${i}`;
    const headline = headlineOf(i);
    principal.run(id, handleOf(i), statusOf(i), i % 50 === 1 ? 0 : 1, name, headline, at(i), at(i));
    for (const t of termsOf({ handle: handleOf(i), displayName: name, headline })) term.run(t, id);
    mandate.run(id, m.scopes, m.consult_counterparts, m.consult_daily, m.reviews_need_approval, at(i));
  });
  const token = db.prepare(
    `INSERT INTO tokens (id, principal_id, label, token_hash, scopes, created_at) VALUES (?, ?, 'agent', ?, '["inbox","consult"]', ?)`,
  );
  chunked('tokens', SIZE.tokens - 1, (i) =>
    token.run(
      `tok_${i.toString(16).padStart(16, '0')}`,
      principalId(i % BULK),
      createHash('sha256').update(`bench-token-${i}`).digest('hex'),
      at(i),
    ),
  );
  const question = db.prepare(
    `INSERT INTO questions (id, asker_id, target_id, question, answer, status, asked_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  chunked('questions', SIZE.questions - INBOX, (i) => {
    const answered = i % 5 < 3;
    question.run(
      `q_${i.toString(16).padStart(16, '0')}`,
      principalId(spread(i, 1)),
      principalId(spread(i, 99_991)),
      `What do you know about ${TOPIC[i % TOPIC.length]}? (${i})`,
      answered ? `Quite a bit about ${TOPIC[(i + 3) % TOPIC.length]}.` : null,
      answered ? 'answered' : 'open',
      at(i * 20),
      answered ? at(i * 20 + 10) : null,
    );
  });
  const evidence = db.prepare(
    `INSERT INTO evidence (id, principal_id, origin, claim, artifact_ref, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  // Each of the 5,000 candidates has 20 pieces of evidence.
  chunked('evidence', SIZE.evidence, (i) => {
    const commit = i % 3 === 0;
    evidence.run(
      `ev_${i.toString(16).padStart(16, '0')}`,
      principalId((i % ((BULK / 20) | 0)) * 20),
      commit ? 'commit' : 'manual',
      `Shipped ${TOPIC[i % TOPIC.length]} work item ${i} with the team.`,
      commit ? createHash('sha1').update(String(i)).digest('hex') : null,
      at(i * 300),
    );
  });
  // No ANALYZE: the planner sees what a real store's planner sees.
  db.pragma('synchronous = FULL');
}
