import { EXIT, UsageError, type CliIo } from '../io.ts';

type Sub = (argv: string[], io: CliIo) => Promise<number>;

/** The gate's subcommands, with the one-line summaries `warden gate --help` prints. */
export const GATE_COMMANDS: Record<string, { summary: string; load: () => Promise<Sub> }> = {
  pin: {
    summary: 'fetch tools/list and write a lockfile (hash + whole definition per tool)',
    load: async () => (await import('./pin.ts')).runPin,
  },
  check: {
    summary: 'compare the live manifest with the lock: exit 0 pass, 1 breaking, 2 unknown or error',
    load: async () => (await import('./check.ts')).runCheck,
  },
  diff: {
    summary: 'compare two files (tools/list results or lockfiles)',
    load: async () => (await import('./diff.ts')).runDiff,
  },
  accept: {
    summary: 'bless a reviewed change into the lock, bound to its old and new hashes',
    load: async () => (await import('./accept.ts')).runAccept,
  },
  club: {
    summary: "Warden gates itself: each tier's view of the club against its committed lock (--bless)",
    load: async () => (await import('./club.ts')).runClub,
  },
  proxy: {
    summary:
      'put the gate in front of a stdio server, or of a remote one over Streamable HTTP (--url): record every call for replay, withhold tools whose change is breaking or unknown',
    load: async () => (await import('./proxy.ts')).runProxy,
  },
};

const USAGE = `Usage: warden gate <${Object.keys(GATE_COMMANDS).join('|')}> [options]

${Object.entries(GATE_COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`)
  .join('\n')}

Run "warden gate <command> --help" for its options.
`;

/** The compat gate's CLI: a thin shell over the compat library, printing only through io. */
export async function runGate(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.stdout(USAGE);
    return name ? EXIT.ok : EXIT.error;
  }
  const load = GATE_COMMANDS[name]?.load;
  if (!load) throw new UsageError(`unknown gate command "${name}"\n\n${USAGE}`);
  const run = await load();
  try {
    return await run(rest, io);
  } catch (err) {
    // The library answers every input with verdicts; anything else escaping is a fault of the
    // gate's own, reported as one line in its words, never as the runtime's message or a stack.
    if (err instanceof UsageError) throw err;
    const kind = err instanceof Error ? err.name : typeof err;
    throw new UsageError(`${name} stopped on an internal error (${kind}); nothing was decided`);
  }
}
