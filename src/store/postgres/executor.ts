import pg from 'pg';
import type { GuardedStatement, Param, Row, SqlExecutor } from '../sql.ts';
import { migrate } from './migrate.ts';
import { toPositional } from './placeholders.ts';

const CONNECT_TIMEOUT_MS = 10_000;

/** PostgreSQL's type id for bigint (int8): what COUNT(*) and SUM over integers return. */
const INT8 = 20;

/**
 * bigint arrives as a string by default (it may exceed 2^53). Our counts never come
 * close, and the contract promises JS numbers for INTEGER columns on every backend,
 * so int8 is parsed as a number for this pool only (not the process-wide default).
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? Number
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Opens a pool on a postgres:// URL and migrates the schema before returning, so a
 * replica never serves from a half-built database. Several replicas may start at
 * once: migrating is serialised by an advisory lock (see migrate.ts).
 */
export async function openPostgres(url: string): Promise<SqlExecutor> {
  // A database that does not answer fails the open (or the request) within this bound
  // instead of holding a replica's start, or a caller, forever.
  const pool = new pg.Pool({ connectionString: url, types, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client that loses its connection is dropped by the pool and the next
  // query opens a new one; without a listener the 'error' event would end the process.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migrate(client);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end();
    throw err;
  }
  return new PostgresExecutor(pool);
}

class PostgresExecutor implements SqlExecutor {
  readonly kind = 'postgres';

  constructor(readonly pool: pg.Pool) {}

  async all(sql: string, params: Param[] = []): Promise<Row[]> {
    return (await this.pool.query<Row>(toPositional(sql), params)).rows;
  }

  async allArrays(sql: string, params: Param[] = []): Promise<unknown[][]> {
    return (await this.pool.query<unknown[]>({ text: toPositional(sql), values: params, rowMode: 'array' }))
      .rows;
  }

  async get(sql: string, params: Param[] = []): Promise<Row | undefined> {
    return (await this.all(sql, params))[0];
  }

  async run(sql: string, params: Param[] = []): Promise<number> {
    return (await this.pool.query(toPositional(sql), params)).rowCount ?? 0;
  }

  /** One transaction on one pooled client: either every statement holds or none does. */
  async batch(statements: { sql: string; params: Param[] }[]): Promise<void> {
    await this.write(statements);
  }

  /**
   * One transaction; a guarded statement that changes nothing rolls it all back.
   * Row locks taken by an UPDATE last until COMMIT, and under READ COMMITTED each
   * later statement sees what the previous lock holder committed.
   */
  async write(statements: GuardedStatement[]): Promise<number[] | null> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const changes: number[] = [];
      for (const s of statements) {
        const n = (await client.query(toPositional(s.sql), s.params)).rowCount ?? 0;
        if (s.mustChange && n === 0) {
          await client.query('ROLLBACK');
          return null;
        }
        changes.push(n);
      }
      await client.query('COMMIT');
      return changes;
    } catch (err) {
      // A client whose ROLLBACK failed is in an unknown state: release it as broken.
      await client.query('ROLLBACK').catch((e: unknown) => {
        broken = e instanceof Error ? e : new Error(String(e));
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /** The pool's writes never hold up the event loop: nothing to set aside. */
  writeAside(statements: GuardedStatement[]): Promise<number[] | null> {
    return this.write(statements);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
