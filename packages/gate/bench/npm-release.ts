// One published release of an MCP server, installed from the npm registry into a folder of its
// own (--ignore-scripts, no dev dependencies), and the path of the executable it declares. The
// real-release benches share it, so each installs a release the same way.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Installs `pkg@version` under `dir` unless it is there already; the file its `bin` names. */
export function installRelease(dir: string, pkg: string, version: string, timeoutMs: number): string {
  const installed = path.join(dir, 'node_modules', ...pkg.split('/'));
  if (!fs.existsSync(installed))
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        dir,
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--omit=dev',
        `${pkg}@${version}`,
      ],
      { stdio: 'ignore', timeout: timeoutMs },
    );
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error(`${pkg}@${version} has no bin`);
  return path.join(installed, bin);
}
