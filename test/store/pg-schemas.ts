import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Throwaway schemas in the test database, so runs (and tests) never share tables.
 * Each URL pins search_path to its schema; `dropAll` removes every schema it made.
 */
export class PgSchemas {
  readonly #admin: pg.Pool;
  readonly #made: string[] = [];

  constructor(readonly baseUrl: string) {
    this.#admin = new pg.Pool({ connectionString: baseUrl, max: 2 });
  }

  /** Creates an empty schema and returns a URL whose connections use only it. */
  async fresh(): Promise<string> {
    const schema = `warden_test_${randomBytes(6).toString('hex')}`;
    await this.#admin.query(`CREATE SCHEMA ${schema}`);
    this.#made.push(schema);
    const url = new URL(this.baseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  }

  async dropAll(): Promise<void> {
    for (const schema of this.#made.splice(0)) await this.#admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await this.#admin.end();
  }
}
