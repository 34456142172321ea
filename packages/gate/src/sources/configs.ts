// The servers of an MCP client configuration, as the gate pins them: each under its name, with
// how it is started (its launch, as the file writes it), read in parallel.
import fs from 'node:fs';
import { parseSnapshot, type Launch, type ServerSnapshot } from '../compat/index.ts';
import { ConfigError, readClientConfig } from '../connect/config.ts';
import { maskSecrets } from '../connect/explain.ts';
import { isObject } from '../connect/json.ts';
import { parseJsonc } from '../connect/jsonc.ts';
import { reachAndRead, ReachError } from '../connect/reach.ts';
import type { Target } from '../connect/types.ts';
import { UsageError } from '../host/io.ts';
import { packageOf, resolveVersion } from './npm-package.ts';
import { DEFAULT_TIMEOUT_MS, timeoutAdvice } from './sources.ts';
import { VERSION } from '../version.ts';

/** One entry of the configuration, with what may be printed and pinned of it. */
export interface Configured {
  name: string;
  target: Target;
  /** How the entry starts its server, secrets masked; absent when the entry cannot run. */
  launch?: Launch;
  /** Why the client would not start it (then it is reported, and neither pinned nor judged). */
  invalid?: string;
  /** Values from the configuration and the environment never to print. */
  secrets: string[];
}

/** One configured server, read: what it serves, or the one line saying why it could not be read. */
export interface ServerRead {
  server: Configured;
  launch: Launch;
  snapshot?: ServerSnapshot;
  error?: string;
  /** Why the package's version is not known, when it is not. */
  unresolved?: string;
}

/** Servers read at once, and how long each gets for every request (starting, each page). */
const PARALLEL = 4;

/** The configuration's servers (only `--server NAME` when given), each with its launch. */
export function readConfiguration(
  file: string,
  only: string | undefined,
  inputArgs: readonly string[],
  env: Record<string, string | undefined>,
): { label: string; servers: Configured[] } {
  const inputs = new Map<string, string>();
  for (const raw of inputArgs) {
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input must look like ID=VALUE, got "${raw.slice(0, 40)}"`);
    inputs.set(raw.slice(0, eq), raw.slice(eq + 1));
  }
  let config;
  try {
    config = readClientConfig(file, env, inputs);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  const written = writtenEntries(config.file, config.format === 'vscode');
  const servers = config.targets.map((target): Configured => {
    const secrets = secretsOf(target, env, inputs);
    const out: Configured = { name: target.name, target, secrets };
    if (target.invalid) out.invalid = maskSecrets(target.invalid, secrets);
    else out.launch = launchOf(target, written[target.name], secrets);
    return out;
  });
  if (only !== undefined && !servers.some((s) => s.name === only))
    throw new UsageError(
      `no server named "${only}" in ${file} (it has: ${servers.map((s) => s.name).join(', ') || 'none'})`,
    );
  return { label: config.label, servers: servers.filter((s) => only === undefined || s.name === only) };
}

/** The entries as written (references not filled in): a pin that is the same on every machine. */
function writtenEntries(file: string, vscode: boolean): Record<string, unknown> {
  const doc = parseJsonc(fs.readFileSync(file, 'utf8'));
  const root = isObject(doc) && vscode && isObject(doc.mcp) ? doc.mcp : doc;
  const servers = isObject(root) ? root[vscode ? 'servers' : 'mcpServers'] : undefined;
  return isObject(servers) ? servers : {};
}

const SECRET_FLAG = /^--?[\w-]*(?:token|secret|passw(?:or)?d|api[_-]?key|apikey|auth|credential)[\w-]*$/i;

function launchOf(target: Target, raw: unknown, secrets: string[]): Launch {
  const entry = isObject(raw) ? raw : {};
  const mask = (text: string) => maskSecrets(text, secrets);
  if (target.kind === 'http')
    return { transport: 'http', url: mask(typeof entry.url === 'string' ? entry.url : target.url) };
  const args = Array.isArray(entry.args) ? entry.args.filter((a) => typeof a === 'string') : target.args;
  const launch: Launch = {
    transport: 'stdio',
    command: mask(typeof entry.command === 'string' ? entry.command : target.command),
    // A value after a flag named like a credential (`--api-key VALUE`) is one, wherever it came from.
    args: args.map((a, i) => (i > 0 && SECRET_FLAG.test(args[i - 1] as string) ? '***' : mask(a))),
  };
  const pkg = packageOf(target.command, target.args);
  if (pkg) launch.package = { ...pkg, version: null };
  return launch;
}

/** Header and environment values of the entry, and every value a reference in it was filled with. */
function secretsOf(
  target: Target,
  env: Record<string, string | undefined>,
  inputs: ReadonlyMap<string, string>,
): string[] {
  const given = target.kind === 'http' ? Object.values(target.headers) : Object.values(target.env);
  const filled = target.references
    .filter((r) => r.resolved && r.kind !== 'variable')
    .map((r) => (r.kind === 'env' ? env[r.name] : inputs.get(r.name)));
  return [...given, ...filled].filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * Reads every runnable server, PARALLEL at a time: what it serves, and the version its package
 * resolves to (unless offline). A server that cannot be read gives its cause; the others are
 * read all the same.
 */
export async function readConfiguredServers(
  servers: readonly Configured[],
  options: { env: Record<string, string | undefined>; offline: boolean; timeoutMs?: number },
): Promise<ServerRead[]> {
  const runnable = servers.filter((s): s is Configured & { launch: Launch } => s.launch !== undefined);
  const out: ServerRead[] = new Array(runnable.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < runnable.length; i = next++) {
      const server = runnable[i] as Configured & { launch: Launch };
      out[i] = await readOne(server, server.launch, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, runnable.length) }, worker));
  return out;
}

async function readOne(
  server: Configured,
  launch: Launch,
  options: { env: Record<string, string | undefined>; offline: boolean; timeoutMs?: number },
): Promise<ServerRead> {
  const read: ServerRead = { server, launch: { ...launch } };
  const pkg = launch.package;
  const [resolution, served] = await Promise.all([
    !pkg
      ? undefined
      : options.offline
        ? { version: null, why: 'not looked up: --offline' }
        : resolveVersion(pkg, options.env),
    reach(server.target, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  ]);
  if (pkg && resolution) {
    read.launch.package = { ...pkg, version: resolution.version };
    if (resolution.version === null) read.unresolved = resolution.why;
  }
  if ('error' in served) read.error = maskSecrets(served.error, server.secrets);
  else read.snapshot = served.snapshot;
  return read;
}

async function reach(
  target: Target,
  timeoutMs: number,
): Promise<{ snapshot: ServerSnapshot } | { error: string }> {
  const reachable =
    target.kind === 'http'
      ? { kind: 'http' as const, url: target.url, headers: target.headers }
      : {
          kind: 'stdio' as const,
          command: target.command,
          args: target.args,
          env: target.env,
          cwd: target.cwd,
        };
  try {
    const doc = await reachAndRead(
      reachable,
      { name: 'warden-gate', version: VERSION },
      timeoutMs,
      timeoutAdvice(timeoutMs),
    );
    return { snapshot: parseSnapshot(doc) };
  } catch (err) {
    if (err instanceof ReachError) return { error: err.message };
    return { error: `it served something the gate cannot read: ${(err as Error).message}` };
  }
}

/** One stderr note per entry the client would not start, and per reference left unfilled. */
export function noteSkipped(servers: readonly Configured[], stderr: (text: string) => void): void {
  for (const s of servers) {
    if (s.invalid) stderr(`note: ${s.name}: not started, as its client would not start it: ${s.invalid}\n`);
    for (const field of s.target.dropped) {
      const refs = s.target.references.filter((r) => r.field === field && !r.resolved);
      const hint = refs.some((r) => r.kind === 'input') ? ' (give inputs with --input ID=VALUE)' : '';
      const named = refs.map((r) => r.text).join(', ') || 'a reference';
      stderr(`note: ${s.name}: ${field} left out: ${named} has no value${hint}\n`);
    }
  }
}
