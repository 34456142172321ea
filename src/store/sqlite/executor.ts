import Database from 'better-sqlite3';
import { MIGRATIONS } from '../schema.ts';
import type { Param, Row, SqlExecutor } from '../sql.ts';

/**
 * Opens (creating if needed) a SQLite file: WAL journal, synchronous=FULL and
 * foreign keys on every open, then runs pending migrations. The pragmas are not
 * persistent in SQLite (bar WAL), so setting them here on each open is the point.
 */
export function openSqlite(path: string): SqliteExecutor {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return new SqliteExecutor(db);
}

function migrate(db: Database.Database): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  for (let v = current; v < MIGRATIONS.length; v++) {
    const step = db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    });
    step();
  }
}

export class SqliteExecutor implements SqlExecutor {
  readonly kind = 'sqlite';
  readonly #statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  /** Prepared statements are cached by SQL text: preparing is the expensive part. */
  #prepare(sql: string): Database.Statement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  async all(sql: string, params: Param[] = []): Promise<Row[]> {
    return this.#prepare(sql).all(...params) as Row[];
  }

  async get(sql: string, params: Param[] = []): Promise<Row | undefined> {
    return this.#prepare(sql).get(...params) as Row | undefined;
  }

  async run(sql: string, params: Param[] = []): Promise<number> {
    return this.#prepare(sql).run(...params).changes;
  }

  async batch(statements: { sql: string; params: Param[] }[]): Promise<void> {
    this.db.transaction(() => {
      for (const s of statements) this.#prepare(s.sql).run(...s.params);
    })();
  }

  /** Reads a pragma back (tests check WAL and synchronous=FULL on every open). */
  pragma(name: string): unknown {
    return this.db.pragma(name, { simple: true });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
