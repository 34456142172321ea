import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { openStore, type Store } from '../store/index.ts';
import { UsageError, type CliIo } from './io.ts';

/** The embedded default: a SQLite file in the current directory's .warden folder. */
export const DEFAULT_DB = '.warden/warden.db';

export const DB_OPTIONS = {
  db: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** node:util parseArgs with our errors: an unknown flag is a usage error naming the flag. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  allowPositionals = true,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** Where the store is: --db, else WARDEN_DB, else the embedded default. */
export function dbLocation(flag: string | undefined, io: CliIo): string {
  return flag ?? io.env['WARDEN_DB'] ?? DEFAULT_DB;
}

export async function openDb(flag: string | undefined, io: CliIo): Promise<Store> {
  const location = dbLocation(flag, io);
  if (!/^postgres(ql)?:\/\//.test(location) && location !== ':memory:')
    mkdirSync(dirname(location), { recursive: true });
  try {
    return await openStore(location);
  } catch (err) {
    throw new UsageError(
      `cannot open the store at ${displayLocation(location)}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** A store location fit to print: a PostgreSQL URL loses its password. */
export function displayLocation(location: string): string {
  if (!/^postgres(ql)?:\/\//.test(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n');
}
