import {
  canonicalJson,
  type ItemReport,
  type JsonObject,
  type ServerComparison,
  type ServerSnapshot,
} from '../compat/index.ts';
import { ITEM_KEYS } from './lockfile.ts';

/** A removed and an added item that may be one item under a new name: a hint, never a verdict. */
export interface Rename {
  server: string;
  kind: ItemReport['kind'];
  from: string;
  to: string;
}

type Shape = (snapshot: ServerSnapshot, key: string) => unknown;

const without = (item: JsonObject | undefined, ...keys: string[]): unknown =>
  item && Object.fromEntries(Object.entries(item).filter(([k]) => !keys.includes(k)));

/** What must be equal for two items to be one renamed: everything but the name (and title). */
const SHAPES: Partial<Record<ItemReport['kind'], Shape>> = {
  // A tool is what it accepts and returns: its descriptions may be reworded in the same release.
  tool: (s, key) => {
    const t = s.tools.find((x) => x.name === key);
    return t && { inputSchema: t.inputSchema ?? null, outputSchema: t.outputSchema ?? null };
  },
  prompt: (s, key) =>
    without(
      s.prompts?.find((p) => ITEM_KEYS.prompts(p) === key),
      'name',
      'title',
    ),
  resource: (s, key) =>
    without(
      s.resources?.find((r) => ITEM_KEYS.resources(r) === key),
      'uri',
      'name',
      'title',
    ),
  'resource-template': (s, key) =>
    without(
      s.resourceTemplates?.find((t) => ITEM_KEYS.resourceTemplates(t) === key),
      'name',
      'title',
    ),
  // A skill's files name the skill; its frontmatter (description and the rest) is what is compared.
  skill: (s, key) => without(s.skills?.find((k) => k.uri === key)?.frontmatter, 'name'),
};

/**
 * Per server and kind, each removed item whose definition equals that of exactly one added item
 * apart from the name (and that added item matches no other removed one). Ambiguous pairs are
 * left out: a hint that may be wrong is worse than none.
 */
export function findRenames(
  before: ReadonlyMap<string, ServerSnapshot>,
  after: ReadonlyMap<string, ServerSnapshot>,
  servers: readonly { name: string; comparison: ServerComparison }[],
): Rename[] {
  const out: Rename[] = [];
  for (const { name: server, comparison } of servers) {
    const old = before.get(server);
    const now = after.get(server);
    if (!old || !now) continue;
    for (const [kind, shape] of Object.entries(SHAPES) as [ItemReport['kind'], Shape][]) {
      const keyed = (change: string, snapshot: ServerSnapshot): Map<string, string> => {
        const m = new Map<string, string>();
        for (const i of comparison.items) {
          if (i.kind !== kind || i.change !== change) continue;
          const s = shape(snapshot, i.name);
          if (s !== undefined) m.set(i.name, canonicalJson(s));
        }
        return m;
      };
      const removed = keyed('removed', old);
      const added = keyed('added', now);
      const matches = (shapeOf: string, side: Map<string, string>): string[] =>
        [...side].filter(([, s]) => s === shapeOf).map(([n]) => n);
      for (const [from, s] of removed) {
        const [to, ...others] = matches(s, added);
        if (to !== undefined && others.length === 0 && matches(s, removed).length === 1)
          out.push({ server, kind, from, to });
      }
    }
  }
  return out;
}
