import { EXIT, UsageError, type CliIo } from '../io.ts';

type Sub = (argv: string[], io: CliIo) => Promise<number>;

const SUBCOMMANDS: Record<string, () => Promise<Sub>> = {
  pin: async () => (await import('./pin.ts')).runPin,
  check: async () => (await import('./check.ts')).runCheck,
  diff: async () => (await import('./diff.ts')).runDiff,
  accept: async () => (await import('./accept.ts')).runAccept,
  proxy: async () => (await import('./proxy.ts')).runProxy,
  club: async () => (await import('./club.ts')).runClub,
};

const USAGE = `Usage: warden gate <pin|check|diff|accept|proxy|club> [options]

  pin      fetch tools/list and write a lockfile (hash + whole definition per tool)
  check    compare the live manifest with the lock: exit 0 pass, 1 breaking, 2 unknown or error
  diff     compare two files (tools/list results or lockfiles)
  accept   bless a reviewed change into the lock, bound to its old and new hashes
  proxy    between an agent and a stdio server: record calls, withhold tools whose change breaks
  club     Warden gates itself: each tier's view of the club against its committed lock (--bless)

Run "warden gate <command> --help" for its options.
`;

/** The compat gate's CLI: a thin shell over the compat library, printing only through io. */
export async function runGate(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.stdout(USAGE);
    return name ? EXIT.ok : EXIT.error;
  }
  const load = SUBCOMMANDS[name];
  if (!load) throw new UsageError(`unknown gate command "${name}"\n\n${USAGE}`);
  return (await load())(rest, io);
}
