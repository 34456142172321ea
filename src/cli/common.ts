import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Store } from '../store/index.ts';
import { UsageError, type CliIo } from './io.ts';

/** The embedded default: a SQLite file in the current directory's .warden folder. */
const DEFAULT_DB = '.warden/warden.db';

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

/**
 * Opens the store. Only `warden serve` and `warden admin init` pass `create`: any
 * other command pointed at a file that holds no store stops with exit 2 instead of
 * quietly making a new, empty club there (which then refuses every token).
 */
export async function openDb(
  flag: string | undefined,
  io: CliIo,
  mode: 'create' | 'existing' = 'existing',
): Promise<Store> {
  const location = dbLocation(flag, io);
  if (isFilePath(location)) {
    if (mode === 'existing' && !storeFileExists(location))
      throw new NoStoreError(noStoreMessage(location, flag, io));
    mkdirSync(dirname(location), { recursive: true });
  }
  try {
    const { openStore } = await import('../store/index.ts');
    return await openStore(location);
  } catch (err) {
    throw new UsageError(
      `cannot open the store at ${displayLocation(location)}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** No store where one was expected: a usage error (exit 2) that says how to point at the right one. */
export class NoStoreError extends UsageError {}

function isFilePath(location: string): boolean {
  return !/^postgres(ql)?:\/\//.test(location) && location !== ':memory:';
}

/** A SQLite store is a non-empty file; a missing or empty one holds no club. */
export function storeFileExists(location: string): boolean {
  try {
    const st = statSync(location);
    return st.isFile() && st.size > 0;
  } catch {
    return false;
  }
}

function noStoreMessage(location: string, flag: string | undefined, io: CliIo): string {
  const from =
    flag !== undefined
      ? 'given with --db'
      : io.env['WARDEN_DB'] !== undefined
        ? 'from WARDEN_DB'
        : `the default, ${DEFAULT_DB} under the current directory`;
  return [
    `no Warden store at ${resolve(location)} (${from}).`,
    'Point at the store the club lives in with --db PATH or WARDEN_DB=PATH (an absolute path is safest:',
    'a relative one is read from the directory the command starts in, which a desktop client chooses).',
    `To start a new, empty club there: warden admin init --db ${location}  (warden serve also creates one on first start).`,
  ].join('\n');
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
