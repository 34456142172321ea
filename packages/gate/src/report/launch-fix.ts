// A server started without an exact package version is fixed where its launch is written: the
// client configuration, not the lock. Its finding points there, at the server's entry, and
// carries the edit that fixes it.
import fs from 'node:fs';
import path from 'node:path';
import type { Finding } from '../compat/index.ts';
import { forPeople } from '../text/index.ts';

/**
 * The line of a client configuration where a server's package is started: the first line
 * naming the package after the line naming the server (its key), else the server's line, else 1.
 */
export function launchLine(file: string, server: string, pkg: string | undefined): number {
  let lines: string[] = [];
  try {
    lines = fs.readFileSync(file, 'utf8').split('\n');
  } catch {
    // Read a moment ago to start the server: if it is gone now, line 1 is still the file.
  }
  const key = JSON.stringify(server);
  const at = lines.findIndex((l) => l.includes(key));
  const from = at < 0 ? 0 : at;
  const spec = pkg === undefined ? -1 : lines.slice(from).findIndex((l) => l.includes(pkg));
  return spec >= 0 ? from + spec + 1 : at >= 0 ? at + 1 : 1;
}

/** The edit that fixes an unpinned launch, in one line; undefined for any other finding. */
export function launchFix(f: Finding, file: string | undefined): string | undefined {
  if (f.rule !== 'launch-unpinned') return undefined;
  const { package: pkg, requested, pin } = f.args;
  if (typeof pkg !== 'string' || typeof pin !== 'string') return undefined;
  const was = typeof requested === 'string' && requested !== 'no version' ? `${pkg}@${requested}` : pkg;
  const where = file ? `in ${path.relative(process.cwd(), file) || file}, ` : 'in the client configuration, ';
  return forPeople(`${where}start ${pin} instead of ${was}, then run check again`, 1000);
}
