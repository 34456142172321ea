import Database from 'better-sqlite3';
import { MIGRATIONS } from '../schema.ts';
import type { GuardedStatement, Param, Row, SqlExecutor } from '../sql.ts';
import { AsideWriter } from './aside.ts';
import { retryWhileBusy } from './busy.ts';

/**
 * At open, a replica starting beside another may wait for the other's migration:
 * a start-up wait, before anything is served.
 */
const OPEN_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating if needed) a SQLite file: WAL journal, synchronous=FULL and
 * foreign keys on every open, then runs pending migrations. The pragmas are not
 * persistent in SQLite (bar WAL), so setting them here on each open is the point.
 *
 * Once open, SQLite's own busy wait is switched off: better-sqlite3 is synchronous,
 * so that wait would hold the whole event loop (every request, /tiers included)
 * while another process holds the write lock. Waiting happens in busy.ts instead,
 * between turns of the event loop.
 */
export function openSqlite(path: string): SqliteExecutor {
  const db = new Database(path);
  db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  db.pragma('busy_timeout = 0');
  return new SqliteExecutor(db, path === ':memory:' || path === '' ? null : new AsideWriter(path));
}

/** Each step re-reads the version under the write lock, so two processes starting together migrate once. */
function migrate(db: Database.Database): void {
  const step = db.transaction((): boolean => {
    const v = Number(db.pragma('user_version', { simple: true }));
    if (v >= MIGRATIONS.length) return false;
    db.exec(MIGRATIONS[v] as string);
    db.pragma(`user_version = ${v + 1}`);
    return true;
  });
  while (step.immediate()) {
    // one migration per transaction
  }
}

/** Thrown inside a transaction to roll it back when a guarded statement changed nothing. */
class GuardFailed extends Error {}

export class SqliteExecutor implements SqlExecutor {
  readonly kind = 'sqlite';
  readonly #statements = new Map<string, Database.Statement>();
  /** The same, set to hand rows over as arrays (a statement is in one mode or the other). */
  readonly #arrayStatements = new Map<string, Database.Statement>();

  /** The worker's connection to the same file; null for a database only this connection sees. */
  readonly #aside: AsideWriter | null;

  constructor(
    readonly db: Database.Database,
    aside: AsideWriter | null = null,
  ) {
    this.#aside = aside;
  }

  /** Prepared statements are cached by SQL text: preparing is the expensive part. */
  #prepare(sql: string): Database.Statement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  all(sql: string, params: Param[] = []): Promise<Row[]> {
    return retryWhileBusy(() => this.#prepare(sql).all(...params) as Row[]);
  }

  allArrays(sql: string, params: Param[] = []): Promise<unknown[][]> {
    return retryWhileBusy(() => this.#prepareArrays(sql).all(...params) as unknown[][]);
  }

  #prepareArrays(sql: string): Database.Statement {
    let stmt = this.#arrayStatements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql).raw(true);
      this.#arrayStatements.set(sql, stmt);
    }
    return stmt;
  }

  get(sql: string, params: Param[] = []): Promise<Row | undefined> {
    return retryWhileBusy(() => this.#prepare(sql).get(...params) as Row | undefined);
  }

  run(sql: string, params: Param[] = []): Promise<number> {
    return retryWhileBusy(() => this.#prepare(sql).run(...params).changes);
  }

  async batch(statements: { sql: string; params: Param[] }[]): Promise<void> {
    await this.write(statements);
  }

  /** BEGIN IMMEDIATE: the write lock is taken first, so what the statements read is what they change. */
  write(statements: GuardedStatement[]): Promise<number[] | null> {
    const tx = this.db.transaction(() =>
      statements.map((s) => {
        const changes = this.#prepare(s.sql).run(...s.params).changes;
        if (s.mustChange && changes === 0) throw new GuardFailed();
        return changes;
      }),
    );
    return retryWhileBusy(() => {
      try {
        return tx.immediate();
      } catch (err) {
        if (err instanceof GuardFailed) return null;
        throw err;
      }
    });
  }

  writeAside(statements: GuardedStatement[]): Promise<number[] | null> {
    return this.#aside ? this.#aside.write(statements) : this.write(statements);
  }

  /** Reads a pragma back (tests check WAL and synchronous=FULL on every open). */
  pragma(name: string): unknown {
    return this.db.pragma(name, { simple: true });
  }

  async close(): Promise<void> {
    await this.#aside?.close();
    this.db.close();
  }
}
