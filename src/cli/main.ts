import { processIo, UsageError, EXIT, type CliIo } from './io.ts';

type Command = (argv: string[], io: CliIo) => Promise<number>;

/**
 * The top of the command tree. Subcommands load lazily so `warden gate` never opens a
 * database and `warden serve` never loads the gate. The summaries are the ones
 * `warden --help` prints and the README's command table is generated from (tree.ts).
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  serve: {
    summary:
      "run the club's MCP server over Streamable HTTP, and the principals' console at /console/ (creates its store on first start)",
    load: async () => (await import('./serve.ts')).runServe,
  },
  stdio: {
    summary: 'serve MCP over stdio (token from WARDEN_TOKEN, or --anonymous for the anonymous tier)',
    load: async () => (await import('./stdio.ts')).runStdio,
  },
  admin: {
    summary: 'manage principals, tokens, mandates and decisions (human side)',
    load: async () => (await import('./admin/index.ts')).runAdmin,
  },
  gate: {
    summary: 'pin MCP tool manifests and tell breaking changes from compatible ones',
    load: async () => (await import('./gate/index.ts')).runGate,
  },
  doctor: {
    summary: 'ask an endpoint which tier you really got, and why',
    load: async () => (await import('./doctor/index.ts')).runDoctor,
  },
};

const USAGE = `Usage: warden <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
  .join('\n')}

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
  const load = COMMANDS[name]?.load;
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
