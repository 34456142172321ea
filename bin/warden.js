#!/usr/bin/env node
// Warden's executable: the compiled CLI in dist/ (built by `npm ci` through the prepare
// script, and by `npm run build`), so start-up is Node's own; argv in, exit code out.
import process from 'node:process';

let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
  process.stderr.write('warden: not built yet; run "npm run build" (npm ci does it)\n');
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2));
