// Changed items grouped by server, verdict and kind of change, so a large upgrade reads as a few
// lines ("100 resources removed", "6 tools changed (type-narrowed)") with the items below each,
// bounded. Text, Markdown, the GitHub annotations and `check --update-lock` all group here, so
// every format names the same groups with the same words.
import { headline, isBlessable, type Entry } from '../lock/order.ts';
import { itemLevel } from './levels.ts';

/**
 * Items a group lists one by one before it counts the rest: as many as GitHub annotates per
 * level, so a reader sees about as much in the log as in the annotations. `--verbose` lists all.
 */
export const ITEMS_PER_GROUP = 10;

/** Items of one server, verdict and kind, changed the same way (for a changed item: its headline rule). */
export interface Group {
  server: string;
  verdict: string;
  /** The items' level (their loudest finding's): one group never mixes a warning with info. */
  level: ReturnType<typeof itemLevel>;
  kind: string;
  change: string;
  /** The rule of the items' headline finding (what explains their verdict). */
  rule: string;
  entries: Entry[];
}

const RANK: Record<string, number> = { breaking: 1, unknown: 2, compatible: 3, identical: 4 };

/** Kinds a server has one of: named without a count ("instructions changed"). */
export const SINGLE = new Set(['instructions', 'server', 'launch']);

/**
 * The groups of some changed items: verdict first (breaking, unknown, compatible), then server
 * in the order met, then the largest group first; items keep their order inside a group.
 */
export function groupEntries(entries: readonly Entry[]): Group[] {
  const groups = new Map<string, Group>();
  const servers: string[] = [];
  for (const e of entries) {
    if (!servers.includes(e.server)) servers.push(e.server);
    const rule = headline(e.item.findings)?.rule ?? '';
    const level = itemLevel(e.item);
    const key = [e.server, e.item.verdict, level, e.item.kind, e.item.change, rule].join('\u0000');
    let group = groups.get(key);
    if (!group) {
      group = {
        server: e.server,
        verdict: e.item.verdict,
        level,
        kind: e.item.kind,
        change: e.item.change,
        rule,
        entries: [],
      };
      groups.set(key, group);
    }
    group.entries.push(e);
  }
  const order = [...groups.values()];
  return order
    .map((g, i) => ({ g, i }))
    .sort(
      (a, b) =>
        (RANK[a.g.verdict] ?? 5) - (RANK[b.g.verdict] ?? 5) ||
        servers.indexOf(a.g.server) - servers.indexOf(b.g.server) ||
        b.g.entries.length - a.g.entries.length ||
        a.i - b.i,
    )
    .map(({ g }) => g);
}

/**
 * A group in a few words: `100 resources removed`, `6 tools changed (type-narrowed)`,
 * `instructions changed (instructions-changed)`; `count` says how many (default: all of them),
 * and the server leads when several were compared (`docs: 3 prompts added`).
 */
export function groupTitle(group: Group, many: boolean, count = group.entries.length): string {
  const what = SINGLE.has(group.kind) ? group.kind : `${count} ${group.kind}${count === 1 ? '' : 's'}`;
  const change = group.change === 'unchanged' ? 'flagged' : group.change;
  // An added or removed item says it all in its change, unless something else explains its verdict.
  const plain =
    (group.change === 'added' || group.change === 'removed') && group.rule.endsWith(`-${group.change}`);
  const rule = plain || group.rule === '' ? '' : ` (${group.rule})`;
  return `${many ? `${group.server}: ` : ''}${what} ${change}${rule}`;
}

/** Titles of several groups on one line, largest first as grouped: `100 resources removed, 10 tools removed`. */
export function groupTitles(groups: readonly Group[], many: boolean): string {
  return groups.map((g) => groupTitle(g, many)).join(', ');
}

/**
 * Entries to show one by one when at most `limit` can be: the first of every group, then the
 * second of every group, and so on, so no group goes unseen behind a larger one.
 */
export function spread(groups: readonly Group[], limit: number): Set<Entry> {
  const chosen = new Set<Entry>();
  for (let i = 0; chosen.size < limit; i++) {
    const round = groups.filter((g) => i < g.entries.length);
    if (round.length === 0) break;
    for (const g of round) {
      if (chosen.size >= limit) break;
      chosen.add(g.entries[i] as Entry);
    }
  }
  return chosen;
}

/** The entries of a group a report lists one by one: all with `verbose`, else the first few. */
export function listed(group: Group, verbose: boolean): Entry[] {
  return verbose ? group.entries : group.entries.slice(0, ITEMS_PER_GROUP);
}

/**
 * Servers with a change a person must bless that a report does not list one by one: for those,
 * the report offers the one `accept --all` command instead of a hundred.
 */
export function serversCut(groups: readonly Group[], verbose: boolean): string[] {
  const servers = groups
    .filter((g) => listed(g, verbose).length < g.entries.length)
    .filter((g) => g.entries.some((e) => isBlessable(e.item)))
    .map((g) => g.server);
  return [...new Set(servers)];
}
