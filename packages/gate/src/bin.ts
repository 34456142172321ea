import { processIo } from './cli/io.ts';
import { main } from './cli/main.ts';

/**
 * The `warden-gate` process: argv in, the documented exit code out. It exits once the command
 * is done: a stdio server started through a launcher (`npx`, a shell) can leave a grandchild
 * holding the pipes open, and the gate's answer must not wait on it (the grandchild sees its
 * stdin close when the gate exits, and stops).
 */
export async function run(): Promise<void> {
  const code = await main(process.argv.slice(2), processIo());
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
