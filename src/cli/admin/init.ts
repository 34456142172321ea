import { resolve } from 'node:path';
import {
  DB_OPTIONS,
  dbLocation,
  displayLocation,
  openDb,
  parse,
  printJson,
  storeFileExists,
} from '../common.ts';
import { EXIT, type CliIo } from '../io.ts';
import { leafUsage } from './command.ts';

export const INIT_USAGE = 'init [--db PATH|URL]';
export const INIT_SUMMARY =
  'create a new, empty store (the only command besides serve that creates one); on an existing store it changes nothing';

/** `warden admin init`: the explicit way to make a store, so no other command ever makes one by accident. */
export async function runInit(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, DB_OPTIONS, false);
  if (values.help) {
    io.stdout(leafUsage('admin init', INIT_USAGE, INIT_SUMMARY));
    return EXIT.ok;
  }
  const location = dbLocation(values.db, io);
  const isFile = !/^postgres(ql)?:\/\//.test(location);
  const existed = isFile && storeFileExists(location);
  const store = await openDb(values.db, io, 'create');
  try {
    const principals = await store.countPrincipals();
    const where = isFile ? resolve(location) : displayLocation(location);
    if (values.json) printJson(io, { store: where, created: isFile && !existed, principals });
    else if (existed || principals > 0)
      io.stdout(`A Warden store is already at ${where} (${principals} principals); nothing changed.\n`);
    else
      io.stdout(
        `Created a new Warden store at ${where}.\nNext: warden admin principal add HANDLE --status member --db ${isFile ? where : 'URL'}\n`,
      );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
