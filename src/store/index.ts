import { SqlStore, type SqlStoreOptions } from './sql-store.ts';
import { openSqlite } from './sqlite/executor.ts';
import type { Store } from './contract.ts';

export type * from './contract.ts';

/**
 * Opens the store a location names: a postgres:// URL selects PostgreSQL, anything
 * else is a SQLite file path (created with its schema on first open). The options
 * change how activity is batched and bounded (tests and benches); served, the defaults.
 */
export async function openStore(location: string, options: SqlStoreOptions = {}): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const { openPostgres } = await import('./postgres/executor.ts');
    return new SqlStore(await openPostgres(location), options);
  }
  return new SqlStore(openSqlite(location), options);
}
