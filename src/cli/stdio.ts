import { anonymousPermissions } from '../core/policy/index.ts';
import { refuseOverStdio, startStdio, stderrLogger } from '../server/index.ts';
import { buildRegistry } from '../tools/index.ts';
import { VERSION } from '../version.ts';
import { DB_OPTIONS, NoStoreError, openDb, parse } from './common.ts';
import { EXIT, type CliIo } from './io.ts';

export const STDIO_HELP = `Usage: WARDEN_TOKEN=wdn_… warden stdio [--db PATH|URL]
       warden stdio --anonymous [--db PATH|URL]

Serves MCP over stdin/stdout for a local client, as the agent whose token is in
WARDEN_TOKEN. Without WARDEN_TOKEN it does not start (exit 2): a desktop client's
configuration that lost its token would otherwise connect to the anonymous tier
(3 tools) and look healthy. --anonymous serves the anonymous tier on purpose. A token
that is set but invalid stops the server too (exit 1). Either way the reason is said
on stderr and, as a JSON-RPC error, to the client's first requests. The store must
exist (see "warden admin init"): give an absolute --db or WARDEN_DB in a desktop
client's configuration, since the client chooses the working directory.
`;

export async function runStdio(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, { ...DB_OPTIONS, anonymous: { type: 'boolean', default: false } }, false);
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
  const registry = buildRegistry();
  const anonymousTools = registry.list(anonymousPermissions().effective).length;
  const token = io.env['WARDEN_TOKEN'] || undefined;
  const unsure = tokenProblem(token, values.anonymous, anonymousTools);
  if (unsure) {
    io.stderr(`warden stdio: ${unsure.stderr}\n`);
    await store.close();
    await tellClient(`Warden did not start: ${unsure.client}`);
    return EXIT.error;
  }
  const { handle, first } = await startStdio(
    { store, registry, logger: stderrLogger(io.stderr), version: VERSION },
    token,
  );
  if (first.kind === 'rejected') {
    io.stderr(`warden stdio: WARDEN_TOKEN was rejected (${first.code}): ${first.message}\n`);
    await store.close();
    await tellClient(`Unauthorized: WARDEN_TOKEN was rejected (${first.code}): ${first.message}`);
    return EXIT.failed;
  }
  if (first.kind === 'anonymous') {
    io.stderr(
      `warden stdio: serving the anonymous tier (${anonymousTools} tools), as --anonymous asks. For an agent's tools, set WARDEN_TOKEN to its token (warden admin token issue HANDLE) instead.\n`,
    );
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

/**
 * Why stdio should not start as asked, or null. Serving the anonymous tier is a choice
 * (--anonymous), never what a missing token falls back to: a desktop client hides
 * stderr, so a configuration that lost its token would otherwise connect, list the
 * anonymous tier's few tools, and look healthy. A token and --anonymous together contradict each other.
 */
function tokenProblem(
  token: string | undefined,
  anonymous: boolean,
  anonymousTools: number,
): { stderr: string; client: string } | null {
  if (token !== undefined && anonymous)
    return {
      stderr: 'WARDEN_TOKEN is set and --anonymous asks for no token; remove one of the two.',
      client:
        "WARDEN_TOKEN is set and --anonymous asks for no token; remove one of the two from this server's configuration.",
    };
  if (token === undefined && !anonymous)
    return {
      stderr:
        `WARDEN_TOKEN is not set (or is empty), so nothing is served: without a token this would be the anonymous tier (${anonymousTools} tools), which a client would take for a working connection.\n` +
        "  Set WARDEN_TOKEN to an agent token (warden admin token issue HANDLE) in the client's env for this server,\n" +
        '  or pass --anonymous to serve the anonymous tier on purpose.',
      client:
        "WARDEN_TOKEN is not set. Set it to an agent token in this server's env (warden admin token issue HANDLE), or add --anonymous to its args to serve the anonymous tier on purpose.",
    };
  return null;
}

/** The reason, as a JSON-RPC error on stdout for the client to show, before the process exits. */
function tellClient(message: string): Promise<void> {
  return refuseOverStdio(message, process.stdin, (line) => void process.stdout.write(line));
}
