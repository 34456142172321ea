import fs from 'node:fs';
import {
  compareSnapshots,
  jsonHash,
  parseCalls,
  parseSnapshot,
  snapshotJson,
  worstVerdict,
  type ItemReport,
  type RecordedCall,
  type ServerComparison,
  type ServerSnapshot,
  type Verdict,
} from '../compat/index.ts';
import { withoutByteOrderMark } from '../connect/jsonc.ts';
import { UsageError } from '../host/io.ts';
import { DEFAULT_SERVER, isLock, lockSnapshot, parseLock, type Lock } from './lockfile.ts';
import { findRenames, type Rename } from './renames.ts';
import { isRevision, readJsonFile, readJsonSource } from '../sources/sources.ts';

/** How strictly to judge, and the recording (JSONL) to replay against the new side. */
export interface JudgeOptions {
  calls?: string;
  strictDescriptions: boolean;
  strictOpenObjects: boolean;
  strictConformance: boolean;
}

/** One server's comparison, under the name its lock (or configuration) gives it. */
export interface ServerResult {
  name: string;
  comparison: ServerComparison;
}

/** What check, diff and accept decide: every server's comparison, and the worst verdict. */
export interface GateResult {
  verdict: Verdict;
  servers: ServerResult[];
  /** Removed and added items that may be one item renamed (a hint for the reader, never a verdict). */
  renames?: Rename[];
}

export function readCalls(file: string | undefined): RecordedCall[] {
  if (!file) return [];
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return parseCalls(withoutByteOrderMark(text));
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
}

export function readLock(file: string): Lock {
  if (!fs.existsSync(file)) throw new UsageError(`no lockfile at ${file}; run "warden-gate pin" first`);
  return parseLock(readJsonFile(file), file);
}

/** What one side of a diff holds, and whether it was a lockfile (read once, for both). */
export interface DiffSide {
  servers: Map<string, ServerSnapshot>;
  lock: boolean;
  /** Read from git (`REF:path`), not from a file: nothing can be accepted into it or pointed at. */
  revision: boolean;
}

/**
 * A file holding a lockfile (every server it pins), a snapshot or a tools/list result (one
 * server); `REF:path` reads the file at a git revision.
 */
export function readServers(file: string): DiffSide {
  const revision = isRevision(file);
  const doc = readJsonSource(file);
  if (isLock(doc)) {
    const lock = parseLock(doc, file);
    return {
      servers: new Map(Object.entries(lock.servers).map(([name, s]) => [name, lockSnapshot(s)])),
      lock: true,
      revision,
    };
  }
  try {
    return { servers: new Map([[DEFAULT_SERVER, parseSnapshot(doc)]]), lock: false, revision };
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
}

/**
 * Server by server, the pinned side against the live one. A server only one side has is one
 * server-level change, added (compatible) or removed (breaking), not one finding per item it
 * serves.
 */
export function compareServers(
  before: ReadonlyMap<string, ServerSnapshot>,
  after: ReadonlyMap<string, ServerSnapshot>,
  args: JudgeOptions,
): GateResult {
  const calls = readCalls(args.calls);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const servers = names.map((name) => {
    const [old, now] = [before.get(name), after.get(name)];
    const comparison =
      old && now
        ? compareSnapshots(old, now, {
            strictDescriptions: args.strictDescriptions,
            strictOpenObjects: args.strictOpenObjects,
            strictConformance: args.strictConformance,
            calls,
          })
        : presence(old, now);
    return { name, comparison };
  });
  const renames = findRenames(before, after, servers);
  return { verdict: worstVerdict(servers.map((s) => s.comparison.verdict)), servers, renames };
}

/** A server one side does not have: one `server-added` or `server-removed` item. */
function presence(old: ServerSnapshot | undefined, now: ServerSnapshot | undefined): ServerComparison {
  const added = old === undefined;
  const verdict = added ? 'compatible' : 'breaking';
  const item: ItemReport = {
    kind: 'server',
    name: '(server)',
    verdict,
    change: added ? 'added' : 'removed',
    oldHash: old ? jsonHash(snapshotJson(old)) : null,
    newHash: now ? jsonHash(snapshotJson(now)) : null,
    findings: [{ rule: added ? 'server-added' : 'server-removed', verdict, pointer: '', args: {} }],
  };
  return { verdict, items: [item], replay: { checked: 0, rejected: [] }, unpinned: [], unread: [] };
}

/** How an item is named in one line of output: `tool search`, `prompt greet`, `docs: skill …`. */
export function itemLabel(server: string, many: boolean, kind: string, name: string): string {
  const item =
    kind === 'tool' ? name : ['instructions', 'server', 'launch'].includes(kind) ? kind : `${kind} ${name}`;
  return many ? `${server}: ${item}` : item;
}
