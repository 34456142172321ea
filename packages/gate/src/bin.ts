import v8 from 'node:v8';
import { processIo } from './host/io.ts';
import { GATE_COMMANDS, main } from './cli/main.ts';

/**
 * How much bytecode a function runs before V8 optimises it, for a command that runs once and
 * exits: four times Node 20's default (66 KiB; twice that of later Nodes). Optimising is done on
 * another thread, and in a run of a few seconds most of it goes to code that finishes before the
 * optimised version pays back. On the real corpus as one manifest pair it takes a fifth off the
 * CPU time, and a seventh off the wall clock when the machine's other core is busy; the proxy,
 * which serves for as long as its client does, keeps V8's default.
 */
const ONE_RUN_BUDGET = `--interrupt-budget=${4 * 66 * 1024}`;

/**
 * The `warden-gate` process: argv in, the documented exit code out. It exits once the command
 * is done: a stdio server started through a launcher (`npx`, a shell) can leave a grandchild
 * holding the pipes open, and the gate's answer must not wait on it (the grandchild sees its
 * stdin close when the gate exits, and stops).
 */
export async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  if (GATE_COMMANDS[argv[0] ?? '']?.runsOnce === true) v8.setFlagsFromString(ONE_RUN_BUDGET);
  const code = await main(argv, processIo());
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
