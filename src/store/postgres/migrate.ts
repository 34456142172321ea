import type { PoolClient } from 'pg';
import { MIGRATIONS } from '../schema.ts';

/**
 * Key of the advisory lock that serialises migrations. Any number works as long as
 * every replica uses the same one; this is "WARDEN" in ASCII.
 */
const MIGRATION_LOCK = 0x574152_44454e;

/**
 * Brings the schema up to date, safely when several replicas start at once. The
 * whole run is one transaction holding a transaction-scoped advisory lock: the
 * first replica migrates, the others wait on the lock, then find nothing left to
 * do. DDL is transactional in PostgreSQL, so a failing step leaves no half schema.
 */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS warden_schema_version (
      version INTEGER PRIMARY KEY,
      applied_at TEXT NOT NULL
    )`);
    // The shared schema sorts handles with COLLATE "BINARY", SQLite's byte order;
    // this gives PostgreSQL a collation of that name, so both engines sort alike.
    await client.query('CREATE COLLATION IF NOT EXISTS "BINARY" FROM "C"');
    const r = await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM warden_schema_version');
    for (let v = r.rows[0]?.v ?? 0; v < MIGRATIONS.length; v++) {
      // No parameters: the simple protocol, which accepts several statements at once.
      await client.query(MIGRATIONS[v] as string);
      await client.query('INSERT INTO warden_schema_version (version, applied_at) VALUES ($1, $2)', [
        v + 1,
        new Date().toISOString(),
      ]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
