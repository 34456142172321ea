import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import { ACCEPT_USAGE, CHECK_USAGE, DIFF_USAGE, PIN_USAGE, PROXY_USAGE } from './usage.ts';

type Sub = (argv: string[], io: CliIo) => Promise<number>;

/** A command of the gate's CLI: its summary line, its help, and the code, loaded on demand. */
export interface GateCommand {
  summary: string;
  usage: string;
  load: () => Promise<Sub>;
  /** Whether it answers and exits (pin, check, diff, accept), rather than serving (proxy). */
  runsOnce?: boolean;
}

/** The gate's subcommands: the one-line summaries `warden-gate --help` prints, and each one's help. */
export const GATE_COMMANDS: Record<string, GateCommand> = {
  pin: {
    usage: PIN_USAGE,
    summary: 'fetch tools/list and write a lockfile (hash + whole definition per tool)',
    load: async () => (await import('./pin.ts')).runPin,
    runsOnce: true,
  },
  check: {
    usage: CHECK_USAGE,
    summary: 'compare the live server with the lock: exit 0 pass, 1 breaking, 2 unknown, 3 error',
    load: async () => (await import('./check.ts')).runCheck,
    runsOnce: true,
  },
  diff: {
    usage: DIFF_USAGE,
    summary: 'compare two files (tools/list results or lockfiles)',
    load: async () => (await import('./diff.ts')).runDiff,
    runsOnce: true,
  },
  accept: {
    usage: ACCEPT_USAGE,
    summary: 'bless a reviewed change into the lock, bound to its old and new hashes',
    load: async () => (await import('./accept.ts')).runAccept,
    runsOnce: true,
  },
  proxy: {
    usage: PROXY_USAGE,
    summary:
      'put the gate in front of a stdio server, or of a remote one over Streamable HTTP (--url): record every call for replay, withhold tools whose change is breaking or unknown',
    load: async () => (await import('./proxy.ts')).runProxy,
  },
};

function usage(program: string, commands: Record<string, GateCommand>): string {
  return `Usage: ${program} <${Object.keys(commands).join('|')}> [options]

${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`)
  .join('\n')}

Run "${program} <command> --help" for its options.
`;
}

/** How a host program (Warden's own CLI) runs the gate: under its name, with commands of its own. */
export interface Host {
  program: string;
  commands: Record<string, GateCommand>;
}

/** Runs one `warden-gate` invocation and returns its exit code; prints through io, never throws. */
export async function main(
  argv: string[],
  io: CliIo,
  host: Host = { program: 'warden-gate', commands: {} },
): Promise<number> {
  const [name, ...rest] = argv;
  const commands = { ...GATE_COMMANDS, ...host.commands };
  const USAGE = usage(host.program, commands);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE);
    return name ? GATE_EXIT.pass : GATE_EXIT.error;
  }
  if (name === '--version' || name === '-v') {
    const { VERSION } = await import('../version.ts');
    io.stdout(`${host.program} ${VERSION}\n`);
    return GATE_EXIT.pass;
  }
  const load = commands[name]?.load;
  if (!load) {
    io.stderr(`${host.program}: unknown command "${name}"\n\n${USAGE}`);
    return GATE_EXIT.error;
  }
  try {
    // The program's name travels with the io: the commands a report prints are runnable as shown.
    return await (
      await load()
    )(rest, { ...io, program: host.program });
  } catch (err) {
    // The library answers every input with verdicts; anything else escaping is a fault of the
    // gate's own, reported as one line in its words, never as the runtime's message or a stack.
    const message =
      err instanceof UsageError
        ? err.message
        : `stopped on an internal error (${err instanceof Error ? err.name : typeof err}); nothing was decided`;
    io.stderr(`${host.program} ${name}: ${message}\n`);
    return GATE_EXIT.error;
  }
}
