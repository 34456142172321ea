import { startStdio, stderrLogger } from '../server/index.ts';
import { buildRegistry } from '../tools/index.ts';
import { VERSION } from '../version.ts';
import { DB_OPTIONS, openDb, parse } from './common.ts';
import { EXIT, type CliIo } from './io.ts';

const HELP = `Usage: WARDEN_TOKEN=wdn_… warden stdio [--db PATH|URL]

Serves MCP over stdin/stdout for a local client. Without WARDEN_TOKEN the caller is
anonymous (3 tools); a token that is set but invalid stops the server with an error.
`;

export async function runStdio(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, DB_OPTIONS, false);
  if (values.help) {
    io.stdout(HELP);
    return EXIT.ok;
  }
  const store = await openDb(values.db, io);
  const { handle, first } = await startStdio(
    { store, registry: buildRegistry(), logger: stderrLogger(io.stderr), version: VERSION },
    io.env['WARDEN_TOKEN'],
  );
  if (first.kind === 'rejected') {
    io.stderr(`warden stdio: WARDEN_TOKEN was rejected (${first.code}): ${first.message}\n`);
    await store.close();
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
