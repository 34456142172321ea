// The 100k club on PostgreSQL (WARDEN_BENCH_PG): each store in a fresh schema of that
// database, the big one generated server-side with generate_series (the same shapes
// as the SQLite generator), both schemas dropped at the end of the run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Registry } from '../src/core/registry.ts';
import { defaultMandate } from '../src/core/mandate.ts';
import { openStore } from '../src/store/index.ts';
import { mandateColumns } from '../src/store/rows.ts';
import type { SqlStore } from '../src/store/sql-store.ts';
import type { ToolContext } from '../src/tools/index.ts';
import {
  addBenchPrincipals,
  benchInbox,
  deepHandle,
  emptyClub,
  openQuestionsOf,
  SIZE,
  INBOX,
  type Club,
} from './scale-data.ts';

const BULK = SIZE.principals - 2;

export async function freshSchema(admin: pg.Pool, baseUrl: string): Promise<{ url: string; schema: string }> {
  const schema = `warden_bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), schema };
}

export function bigPostgresClub(
  baseUrl: string,
  registry: Registry<ToolContext>,
  log: (s: string) => void,
): { empty: () => Promise<Club>; big: () => Promise<Club>; cleanup: () => Promise<void> } {
  const admin = new pg.Pool({ connectionString: baseUrl, max: 1 });
  const made: string[] = [];
  const cleanup = async () => {
    for (const s of made.splice(0)) await admin.query(`DROP SCHEMA ${s} CASCADE`);
    await admin.end();
  };
  const empty = async () => {
    const { url, schema } = await freshSchema(admin, baseUrl);
    made.push(schema);
    const club = await emptyClub('', registry, url);
    return { ...club, label: 'empty (PostgreSQL)' };
  };
  const big = async (): Promise<Club> => {
    const { url, schema } = await freshSchema(admin, baseUrl);
    made.push(schema);
    const store = await openStore(url);
    const sql = (store as SqlStore).sql;
    const m = mandateColumns(defaultMandate());
    const step = async (label: string, text: string) => {
      const t = Date.now();
      await sql.run(text);
      log(`  ${label}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
    };
    const pid = (e: string) => `'pr_' || lpad(to_hex(${e}), 16, '0')`;
    const at = (e: string) =>
      `to_char(timestamp '2025-01-01' + (${e}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    const topic = `(ARRAY['rust','boats','compilers','databases','bread','kites','maps','music','chess','law','soil','glass','clocks'])`;
    const spread = (e: string, salt: number) => `((${e})::bigint * 2654435761 + ${salt}) % ${BULK}`;
    await step(
      'principals',
      `INSERT INTO principals (id, handle, status, accepts_questions, display_name, headline, bio, created_at, updated_at)
       SELECT ${pid('i')}, 'p' || lpad(i::text, 6, '0'),
              CASE WHEN i % 20 = 0 THEN 'candidate' WHEN i % 97 = 0 THEN 'suspended' ELSE 'member' END,
              CASE WHEN i % 50 = 1 THEN 0 ELSE 1 END, 'Member ' || i,
              (ARRAY['quiet','bold','rusty','agile','curious','steady','patient','sharp','gentle','brisk','keen','calm','eager','modest','loud','wry','candid'])[1 + i % 17]
                || ' ' || (ARRAY['engineer','sailor','gardener','writer','painter','teacher','baker','pilot','doctor','analyst','builder','chemist','coder','editor','farmer','geologist','historian','jurist','linguist','mason','nurse','optician','potter'])[1 + (i / 17) % 23]
                || ', into ' || ${topic}[1 + i % 13],
              '', ${at('i')}, ${at('i')}
       FROM generate_series(0, ${BULK - 1}) i`,
    );
    await step(
      'search terms',
      `INSERT INTO principal_terms (term, principal_id)
       SELECT DISTINCT w, id FROM principals,
         regexp_split_to_table(lower(handle || ' ' || display_name || ' ' || headline), '[^a-z0-9]+') w
       WHERE w <> '' ON CONFLICT DO NOTHING`,
    );
    await step(
      'mandates',
      `INSERT INTO mandates (principal_id, scopes, consult_counterparts, consult_daily, reviews_need_approval, updated_at)
       SELECT id, '${m.scopes}', '${m.consult_counterparts}', ${m.consult_daily}, ${m.reviews_need_approval}, created_at FROM principals`,
    );
    await step(
      'tokens',
      `INSERT INTO tokens (id, principal_id, label, token_hash, scopes, created_at)
       SELECT 'tok_' || lpad(to_hex(i), 16, '0'), ${pid(`i % ${BULK}`)}, 'agent',
              md5('a' || i) || md5('b' || i), '["inbox","consult"]', ${at('i')}
       FROM generate_series(0, ${SIZE.tokens - 2}) i`,
    );
    await step(
      'questions',
      `INSERT INTO questions (id, asker_id, target_id, question, answer, status, asked_at, answered_at)
       SELECT 'q_' || lpad(to_hex(i), 16, '0'), ${pid(spread('i', 1))}, ${pid(spread('i', 99991))},
              'What do you know about ' || ${topic}[1 + i % 13] || '? (' || i || ')',
              CASE WHEN i % 5 < 3 THEN 'Quite a bit.' END,
              CASE WHEN i % 5 < 3 THEN 'answered' ELSE 'open' END,
              ${at('i * 20')}, CASE WHEN i % 5 < 3 THEN ${at('i * 20 + 10')} END
       FROM generate_series(0, ${SIZE.questions - INBOX - 1}) i`,
    );
    await step(
      'evidence',
      `INSERT INTO evidence (id, principal_id, origin, claim, artifact_ref, created_at)
       SELECT 'ev_' || lpad(to_hex(i), 16, '0'), ${pid(`(i % ${Math.floor(BULK / 20)}) * 20`)},
              CASE WHEN i % 3 = 0 THEN 'commit' ELSE 'manual' END,
              'Shipped ' || ${topic}[1 + i % 13] || ' work item ' || i || ' with the team.',
              CASE WHEN i % 3 = 0 THEN md5(i::text) END, ${at('i * 300')}
       FROM generate_series(0, ${SIZE.evidence - 1}) i`,
    );
    // What autovacuum would do shortly after a bulk load; a real store has statistics.
    await step('analyze', 'ANALYZE');
    const token = await addBenchPrincipals(store, registry);
    await benchInbox(store);
    return {
      label: '100k/1M (PostgreSQL)',
      store,
      token,
      openQuestions: await openQuestionsOf(store),
      deepHandle: await deepHandle(store),
    };
  };
  return { empty, big, cleanup };
}
