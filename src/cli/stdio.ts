import { refuseOverStdio, startStdio, stderrLogger } from '../server/index.ts';
import { buildRegistry } from '../tools/index.ts';
import { VERSION } from '../version.ts';
import { DB_OPTIONS, NoStoreError, openDb, parse } from './common.ts';
import { EXIT, type CliIo } from './io.ts';

export const STDIO_HELP = `Usage: WARDEN_TOKEN=wdn_… warden stdio [--db PATH|URL]

Serves MCP over stdin/stdout for a local client. Without WARDEN_TOKEN the caller is
anonymous (3 tools); a token that is set but invalid stops the server with an error,
said on stderr and, as a JSON-RPC error, to the client's first requests. The store
must exist (see "warden admin init"): give an absolute --db or WARDEN_DB in a desktop
client's configuration, since the client chooses the working directory.
`;

export async function runStdio(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, DB_OPTIONS, false);
  if (values.help) {
    io.stdout(STDIO_HELP);
    return EXIT.ok;
  }
  let store;
  try {
    store = await openDb(values.db, io);
  } catch (err) {
    if (!(err instanceof NoStoreError)) throw err;
    io.stderr(`warden stdio: ${err.message}\n`);
    await tellClient(`Warden cannot start: ${err.message.replace(/\n/g, ' ')}`);
    return EXIT.error;
  }
  const { handle, first } = await startStdio(
    { store, registry: buildRegistry(), logger: stderrLogger(io.stderr), version: VERSION },
    io.env['WARDEN_TOKEN'],
  );
  if (first.kind === 'rejected') {
    io.stderr(`warden stdio: WARDEN_TOKEN was rejected (${first.code}): ${first.message}\n`);
    await store.close();
    await tellClient(`Unauthorized: WARDEN_TOKEN was rejected (${first.code}): ${first.message}`);
    return EXIT.failed;
  }
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await handle.close();
  await store.close();
  return EXIT.ok;
}

/** The reason, as a JSON-RPC error on stdout for the client to show, before the process exits. */
function tellClient(message: string): Promise<void> {
  return refuseOverStdio(message, process.stdin, (line) => void process.stdout.write(line));
}
