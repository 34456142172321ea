// Starting a stdio server in a process group of its own (POSIX), so that stopping it stops
// everything it started: an `npx` child, a shell's, a helper that ignores its stdin closing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The launcher that gives a server its own process group (POSIX; see process-group.js): beside
 * `src/` in the sources, at the top of `dist/` in the bundle, whichever file this code is in.
 */
const GROUP_LAUNCHER = ['../process-group.js', './process-group.js']
  .map((p) => fileURLToPath(new URL(p, import.meta.url)))
  .find((p) => existsSync(p));

/**
 * A command line that starts `command` in a process group of its own, through the launcher
 * (POSIX): signalling what it returns stops the server and everything it started. Elsewhere,
 * the command as given.
 */
export function groupLaunch(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (process.platform === 'win32' || !GROUP_LAUNCHER) return { command, args: [...args] };
  return { command: process.execPath, args: [GROUP_LAUNCHER, command, ...args] };
}
