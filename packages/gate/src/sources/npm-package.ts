// The npm package a configured command runs (`npx -y pkg@1.2.3`, `pnpm dlx pkg`…), and the
// version the registry resolves it to: a server's serverInfo.version is not its package's.
import { execFile } from 'node:child_process';
import path from 'node:path';

/** A package as a command line requests it: `requested` is a version, a tag, a range, or null. */
export interface PackageSpec {
  name: string;
  requested: string | null;
}

/** Runners that fetch a package from the registry and run it, by the words that start them. */
const RUNNERS: readonly (readonly string[])[] = [
  ['npx'],
  ['npm', 'exec'],
  ['npm', 'x'],
  ['pnpx'],
  ['pnpm', 'dlx'],
  ['pnpm', 'exec'],
  ['bunx'],
  ['bun', 'x'],
  ['yarn', 'dlx'],
];
/** Options of those runners that take a value as the next argument (the others are switches). */
const VALUED = new Set(['-c', '--call', '--cache', '--registry', '--userconfig', '-w', '--workspace']);
const PACKAGE_OPTIONS = new Set(['-p', '--package']);
const NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

/**
 * The registry package a command runs, or undefined when it runs none (a plain command, a git
 * or file spec). `-p`/`--package` name it when given; otherwise the first positional does.
 */
export function packageOf(command: string, args: readonly string[]): PackageSpec | undefined {
  const words = [path.basename(command).replace(/\.(?:cmd|exe|ps1)$/i, ''), ...args];
  const runner = RUNNERS.find((r) => r.every((w, i) => words[i] === w));
  if (!runner) return undefined;
  const rest = words.slice(runner.length);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--') return specOf(rest[i + 1]);
    const eq = arg.indexOf('=');
    const option = eq > 0 ? arg.slice(0, eq) : arg;
    if (PACKAGE_OPTIONS.has(option)) return specOf(eq > 0 ? arg.slice(eq + 1) : rest[i + 1]);
    if (!arg.startsWith('-')) return specOf(arg);
    if (eq < 0 && VALUED.has(arg)) i++;
  }
  return undefined;
}

/** `@scope/name@1.2.3` → name and requested version; anything not a registry name → undefined. */
function specOf(spec: string | undefined): PackageSpec | undefined {
  if (spec === undefined) return undefined;
  const at = spec.indexOf('@', 1);
  const name = at < 0 ? spec : spec.slice(0, at);
  const requested = at < 0 ? null : spec.slice(at + 1);
  if (!NAME.test(name) || requested === '') return undefined;
  return { name, requested };
}

/** How long the registry may take to answer before the version is recorded as unknown. */
const LOOKUP_MS = 8000;

/** The version, or why there is none (one line). */
export type Resolution = { version: string } | { version: null; why: string };

/**
 * The version npm would run for the spec, read with `npm view` (nothing is installed or run).
 * For a range, the highest version it matches. Never throws: a registry that cannot be reached in
 * time, or an answer that is not a version, gives `null` and the reason.
 */
export function resolveVersion(
  spec: PackageSpec,
  env: Record<string, string | undefined>,
  timeoutMs = LOOKUP_MS,
): Promise<Resolution> {
  const target = spec.requested === null ? spec.name : `${spec.name}@${spec.requested}`;
  const args = ['view', target, 'version', '--json', '--fetch-retries=0'];
  return new Promise((resolve) => {
    execFile(
      'npm',
      args,
      { env, timeout: timeoutMs, windowsHide: true, shell: process.platform === 'win32' },
      (err, stdout) => {
        if (err) {
          const { killed, code } = err as { killed?: boolean; code?: unknown };
          const why = killed
            ? `the registry did not answer within ${timeoutMs / 1000} s`
            : code === 'ENOENT'
              ? 'npm is not on PATH'
              : `npm view ${target} failed`;
          return resolve({ version: null, why });
        }
        resolve(versionFrom(stdout, target));
      },
    );
  });
}

function versionFrom(stdout: string, target: string): Resolution {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    return { version: null, why: `npm view ${target} did not answer JSON` };
  }
  const versions = (Array.isArray(doc) ? doc : [doc]).filter((v): v is string => typeof v === 'string');
  const version = versions.sort(bySemver).at(-1);
  if (version) return { version };
  return { version: null, why: `the registry has no version matching ${target}` };
}

/** Release order of `major.minor.patch[-pre]`: numbers compared as numbers, a prerelease first. */
function bySemver(a: string, b: string): number {
  const parts = (v: string) => {
    const [core = '', pre] = v.split(/-(.*)/s);
    return [...core.split('.').map(Number), pre === undefined ? 1 : 0];
  };
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return a < b ? -1 : a > b ? 1 : 0;
}
