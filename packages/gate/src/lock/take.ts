// Writing what a server serves now into its pinned state: one item (what accept blesses), the
// surfaces an older lock never pinned, and a whole run's compatible drift (check --update-lock).
import type { ItemReport, JsonObject, Launch, ServerComparison, ServerSnapshot } from '../compat/index.ts';
import { setMember } from '../compat/own.ts';
import type { GateResult } from './compare.ts';
import {
  acceptEntry,
  buildLock,
  ITEM_KEYS,
  lockItem,
  lockServer,
  lockTool,
  type Lock,
  type ServerLock,
} from './lockfile.ts';

/** Writes one item's live state into the pinned server (or removes it). */
export function applyItem(
  server: ServerLock,
  report: ItemReport,
  live: ServerSnapshot,
  launch?: Launch,
): void {
  if (report.kind === 'server') return void (server.server = live.identity ?? null);
  if (report.kind === 'instructions') return void (server.instructions = live.instructions ?? null);
  if (report.kind === 'launch') {
    if (launch) server.launch = launch;
    return;
  }
  if (report.kind === 'tool') {
    const def = live.tools.find((t) => t.name === report.name);
    if (def) setMember(server.tools, report.name, lockTool(def));
    else delete server.tools[report.name];
    return;
  }
  const surface = (
    {
      prompt: 'prompts',
      resource: 'resources',
      'resource-template': 'resourceTemplates',
      skill: 'skills',
    } as const
  )[report.kind];
  const items = (live[surface] ?? []) as unknown as JsonObject[];
  const def = items.find((i) => ITEM_KEYS[surface](i) === report.name);
  const pinned = (server[surface] ??= {});
  if (def) setMember(pinned, report.name, lockItem(def));
  else delete pinned[report.name];
}

/**
 * Starts pinning the surfaces an older lock never pinned (there was nothing to compare them
 * with), recorded in the audit trail; returns whether there were any.
 */
export function pinUnpinned(
  lock: Lock,
  pinned: ServerLock,
  unpinned: ServerComparison['unpinned'],
  live: ServerSnapshot,
  at: string,
): boolean {
  if (unpinned.length === 0) return false;
  const fresh = lockServer(live);
  for (const surface of unpinned) {
    if (surface === 'identity') pinned.server = fresh.server ?? null;
    else (pinned as unknown as Record<string, unknown>)[surface] = fresh[surface];
  }
  lock.audit.push({
    at,
    action: 'pin',
    by: 'auto',
    reason: `pinned ${unpinned.join(', ')} (not in the lock before)`,
  });
  return true;
}

/** What `takeCompatible` wrote: the changes taken in, by server, and the surfaces newly pinned. */
export interface Taken {
  items: { server: string; item: ItemReport }[];
  pinned: { server: string; surfaces: string[] }[];
}

/**
 * Takes a whole run's compatible drift into the lock (in memory; the caller writes it): every
 * changed item of every server, a server added to a configuration, and surfaces never pinned
 * before, each recorded in the audit trail as accepted automatically, with `reason`. Only a
 * run whose verdict is identical or compatible is taken: on anything else the lock is left as
 * it was and undefined is returned, so a breaking or unknown change is never blessed this way.
 */
export function takeCompatible(
  lock: Lock,
  result: GateResult,
  live: ReadonlyMap<string, ServerSnapshot>,
  launches: ReadonlyMap<string, Launch>,
  how: { at: string; reason: string },
): Taken | undefined {
  if (result.verdict !== 'identical' && result.verdict !== 'compatible') return undefined;
  const taken: Taken = { items: [], pinned: [] };
  const several = Object.keys(lock.servers).length > 1 || result.servers.length > 1;
  for (const { name, comparison } of result.servers) {
    const now = live.get(name);
    if (!now) continue;
    const changed = comparison.items.filter((i) => i.verdict !== 'identical');
    const isNew = !Object.hasOwn(lock.servers, name);
    if (isNew)
      lock.servers = buildLock({ ...lock.servers, [name]: lockServer(now, launches.get(name)) }, []).servers;
    const pinned = lock.servers[name] as ServerLock;
    for (const item of changed) {
      if (!isNew) applyItem(pinned, item, now, launches.get(name));
      lock.audit.push(
        acceptEntry(how.at, item, {
          byHand: false,
          reason: how.reason,
          ...(several ? { server: name } : {}),
        }),
      );
      taken.items.push({ server: name, item });
    }
    if (!isNew && pinUnpinned(lock, pinned, comparison.unpinned, now, how.at))
      taken.pinned.push({ server: name, surfaces: [...comparison.unpinned] });
  }
  return taken;
}
