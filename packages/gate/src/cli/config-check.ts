// `check --config`: every server of a client configuration against the lock, each judged on
// what it serves and on how it is started, in one result.
import {
  combineVerdict,
  compareLaunch,
  worstVerdict,
  type ItemReport,
  type Launch,
  type ServerSnapshot,
} from '../compat/index.ts';
import { UsageError, type CliIo } from '../host/io.ts';
import { compareServers, readLock, type GateResult, type ServerResult } from '../lock/compare.ts';
import {
  noteSkipped,
  readConfiguration,
  readConfiguredServers,
  type ServerRead,
} from '../sources/configs.ts';
import { lockSnapshot, type Lock } from '../lock/lockfile.ts';
import type { GateArgs } from './options.ts';

export interface ConfigComparison {
  lock: Lock;
  /** What each server that could be read serves now (what accept would write into the lock). */
  live: Map<string, ServerSnapshot>;
  result: GateResult;
  /** How each configured server is started now (what accept writes for a changed launch). */
  launches: Map<string, Launch>;
  /** Servers that could not be started or reached: each is in the result, and the exit is an error. */
  failed: string[];
}

/** `--config` names the servers; another source beside it is a usage error. */
export function assertConfigAlone(args: GateArgs): string {
  const { url, manifest, command } = args.source;
  if (url || manifest || command?.length)
    throw new UsageError('give --config FILE or one source (--url, --manifest, -- COMMAND), not both');
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  return args.config as string;
}

/**
 * The lock against every server the configuration starts (or the one `--server` names). A server
 * that cannot be read is reported with its cause and left out of the comparison (it is neither
 * removed nor judged); an entry its client would not start counts as not configured.
 */
export async function compareLockWithConfig(args: GateArgs, io: CliIo): Promise<ConfigComparison> {
  const file = assertConfigAlone(args);
  const lock = readLock(args.lock);
  const { servers } = readConfiguration(file, args.server, args.inputs, io.env);
  noteSkipped(servers, io.stderr);
  const reads = await readConfiguredServers(servers, {
    env: io.env,
    offline: args.offline,
    timeoutMs: args.source.timeoutMs,
  });
  const failed = reads.filter((r) => r.error !== undefined);
  const unread = new Set(failed.map((r) => r.server.name));
  const pinned = new Map<string, ServerSnapshot>();
  for (const [name, server] of Object.entries(lock.servers))
    if ((args.server === undefined || name === args.server) && !unread.has(name))
      pinned.set(name, lockSnapshot(server));
  const live = new Map(reads.flatMap((r) => (r.snapshot ? [[r.server.name, r.snapshot] as const] : [])));
  const compared = compareServers(pinned, live, args);
  const byName = new Map(reads.map((r) => [r.server.name, r]));
  const judged = compared.servers.map((s) => {
    const read = byName.get(s.name);
    return read ? withLaunch(s, launchItem(read, pinnedLaunch(lock, s.name, args.lock))) : s;
  });
  const broken = failed.map((r) => failedServer(r, pinnedLaunch(lock, r.server.name, args.lock)));
  const all = [...judged, ...broken].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const result = {
    verdict: worstVerdict(all.map((s) => s.comparison.verdict)),
    servers: all,
    ...(compared.renames ? { renames: compared.renames } : {}),
  };
  const launches = new Map(reads.map((r) => [r.server.name, r.launch] as const));
  return { lock, live, result, launches, failed: failed.map((r) => r.server.name) };
}

/** How the lock says a server is started, if it says; a launch it cannot read stops the command. */
export function pinnedLaunch(lock: Lock, name: string, file: string): Launch | undefined {
  const server = Object.hasOwn(lock.servers, name) ? lock.servers[name] : undefined;
  const launch = server?.launch as unknown;
  if (launch === undefined) return undefined;
  const l = launch as Partial<Launch> | null;
  const ok =
    typeof l === 'object' &&
    l !== null &&
    (l.transport === 'stdio' || l.transport === 'http') &&
    (l.args === undefined || (Array.isArray(l.args) && l.args.every((a) => typeof a === 'string')));
  if (!ok) throw new UsageError(`${file}: server "${name}" has a launch the gate cannot read`);
  return l as Launch;
}

function launchItem(read: ServerRead, pinned: Launch | undefined): ItemReport {
  const item = compareLaunch(pinned, read.launch, read.unresolved ? { unresolved: read.unresolved } : {});
  if (read.error === undefined) return item;
  const findings = [
    ...item.findings,
    { rule: 'launch-failed' as const, verdict: 'unknown' as const, pointer: '', args: { error: read.error } },
  ];
  const change = item.oldHash === null ? 'added' : item.oldHash === item.newHash ? 'unchanged' : 'changed';
  return { ...item, findings, verdict: combineVerdict(findings), change };
}

/** The launch item first; an unchanged launch of a server new to the lock says nothing more. */
function withLaunch(s: ServerResult, item: ItemReport): ServerResult {
  const added = s.comparison.items.some((i) => i.kind === 'server' && i.change === 'added');
  if (added && item.verdict === 'identical') return s;
  const verdict = worstVerdict([s.comparison.verdict, item.verdict]);
  return { name: s.name, comparison: { ...s.comparison, items: [item, ...s.comparison.items], verdict } };
}

function failedServer(read: ServerRead, pinned: Launch | undefined): ServerResult {
  const item = launchItem(read, pinned);
  return {
    name: read.server.name,
    comparison: {
      verdict: item.verdict,
      items: [item],
      replay: { checked: 0, rejected: [] },
      unpinned: [],
      unread: [],
    },
  };
}
