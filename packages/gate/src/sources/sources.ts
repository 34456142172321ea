import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { parseSnapshot, type ServerSnapshot, type Tool } from '../compat/index.ts';
import { UsageError } from '../host/io.ts';
import { withoutByteOrderMark } from '../connect/jsonc.ts';
import { VERSION } from '../version.ts';

/** Where a live manifest comes from: exactly one of a URL, a file, or a stdio command. */
export interface Source {
  url?: string;
  headers: Record<string, string>;
  manifest?: string;
  command?: string[];
  /**
   * How long a live server gets to start and answer initialize, and then each list request
   * (DEFAULT_TIMEOUT_MS when absent).
   */
  timeoutMs?: number;
}

/**
 * A live server's time to start and answer initialize, and then each list: far below a minute,
 * since a server that has not answered a list in this long is not going to in a CI job.
 */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** The advice a timeout's message ends with: the limit in force, and how to change it. */
export function timeoutAdvice(timeoutMs: number): string {
  return `the limit is ${+(timeoutMs / 1000).toFixed(1)} s a step (start and initialize, then each list); raise it with --timeout SECONDS`;
}

export function parseHeaders(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`--header must look like "Name: value", got "${h}"`);
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return out;
}

export function describeSource(source: Source): string {
  return source.url ?? source.manifest ?? (source.command ?? []).join(' ');
}

/** Exactly one source, or a usage error. */
function checkSource(source: Source): void {
  const count = [source.url, source.manifest, source.command?.length ? source.command : undefined].filter(
    Boolean,
  ).length;
  if (count !== 1)
    throw new UsageError('give exactly one source: --url URL, --manifest FILE, or -- COMMAND ARGS...');
}

/** `REF:path` as git names a file at a revision (`origin/main:mcp-lock.json`, `HEAD~1:./a.json`). */
const REVISION = /^([^:\s][^:]*):(.+)$/;

/**
 * Whether `spec` names a file at a git revision rather than a file: it has the form `REF:path`
 * and no file of that name exists (a file always wins, so a path holding `:` still reads).
 */
export function isRevision(spec: string): boolean {
  return REVISION.test(spec) && !fs.existsSync(spec);
}

/**
 * A JSON file, or with `REF:path` the file at that git revision (read with `git show`, as
 * oasdiff takes `origin/main:openapi.yaml`), so a server's author can diff a change against
 * the branch it goes into without checking anything out.
 */
export function readJsonSource(spec: string): unknown {
  if (!isRevision(spec)) return readJsonFile(spec);
  let text: string;
  try {
    text = execFileSync('git', ['show', spec], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    const why =
      e.code === 'ENOENT' ? 'git is not installed' : (e.stderr ?? '').trim().split('\n')[0] || String(err);
    throw new UsageError(`cannot read ${spec} from git: ${why}`);
  }
  try {
    return JSON.parse(withoutByteOrderMark(text));
  } catch {
    throw new UsageError(`${spec} is not valid JSON`);
  }
}

/** Reads a JSON file or fails with a message naming it (never a stack). */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(withoutByteOrderMark(text));
  } catch {
    throw new UsageError(`${file} is not valid JSON`);
  }
}

/** The tools a source serves (the proxy and the club gate pin tools only). */
export async function loadTools(source: Source): Promise<Tool[]> {
  return (await loadSnapshot(source)).tools;
}

/**
 * Everything the source serves: a file holding a snapshot or a tools/list result, or a live
 * server, whose handshake (either protocol era) is the official client's and whose lists are
 * read as sent, so a server whose tools are not valid MCP is still pinned and compared.
 */
export async function loadSnapshot(source: Source): Promise<ServerSnapshot> {
  checkSource(source);
  if (source.manifest) {
    try {
      return parseSnapshot(readJsonFile(source.manifest));
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`${source.manifest}: ${(err as Error).message}`);
    }
  }
  const { reachAndRead, ReachError } = await import('../connect/reach.ts');
  const [command, ...args] = source.command ?? [];
  const target = source.url
    ? { kind: 'http' as const, url: source.url, headers: source.headers }
    : { kind: 'stdio' as const, command: command as string, args };
  try {
    const timeoutMs = source.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return parseSnapshot(
      await reachAndRead(
        target,
        { name: 'warden-gate', version: VERSION },
        timeoutMs,
        timeoutAdvice(timeoutMs),
      ),
    );
  } catch (err) {
    if (err instanceof ReachError)
      throw new UsageError(`cannot read ${describeSource(source)}: ${err.message}`);
    throw new UsageError(
      `${describeSource(source)} served something the gate cannot read: ${(err as Error).message}`,
    );
  }
}
