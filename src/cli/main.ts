import { processIo, UsageError, EXIT, type CliIo } from './io.ts';

type Command = (argv: string[], io: CliIo) => Promise<number>;

/** Subcommands load lazily so `warden gate` never opens a database and `warden serve` never loads the gate. */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.ts')).runServe,
  stdio: async () => (await import('./stdio.ts')).runStdio,
  admin: async () => (await import('./admin/index.ts')).runAdmin,
  doctor: async () => (await import('./doctor/index.ts')).runDoctor,
  gate: async () => (await import('./gate/index.ts')).runGate,
};

const USAGE = `Usage: warden <command> [options]

Commands:
  serve     run the club's MCP server over Streamable HTTP (default store: SQLite file)
  stdio     serve MCP over stdio (token from WARDEN_TOKEN)
  admin     manage principals, tokens, mandates and decisions (human side)
  gate      pin MCP tool manifests and tell breaking changes from compatible ones
  doctor    ask an endpoint which tier you really got, and why

Run "warden <command> --help" for a command's options; "warden --version" for the version.
`;

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE);
    return name ? EXIT.ok : EXIT.error;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    const { VERSION } = await import('../version.ts');
    io.stdout(`warden ${VERSION}\n`);
    return EXIT.ok;
  }
  const load = commands[name];
  if (!load) {
    io.stderr(`warden: unknown command "${name}"\n\n${USAGE}`);
    return EXIT.error;
  }
  try {
    return await (
      await load()
    )(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`warden ${name}: ${err.message}\n`);
      return EXIT.error;
    }
    io.stderr(`warden ${name}: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.error;
  }
}
