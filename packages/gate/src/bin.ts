import { processIo } from './cli/io.ts';
import { main } from './cli/main.ts';

/** The `warden-gate` process: argv in, the documented exit code out. */
export async function run(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
