import type { Diagnosis, TierCatalog } from './endpoints.ts';
import { sendsCredential } from './reasons.ts';
import { TIERS, type Target, type Tier } from './types.ts';

/**
 * Compares what tools/list really returned with what the server says this caller
 * gets. Every difference is returned in words; an empty list means they agree. The
 * doctor trusts what is served, so a difference is a failure, never a footnote.
 */
export function crossCheck(
  target: Target,
  served: string[],
  d: Diagnosis,
  catalog: TierCatalog | null,
  claimedBy: string,
): string[] {
  const problems: string[] = [];
  if (sendsCredential(target) && !d.headerPresent) {
    problems.push(
      target.kind === 'http'
        ? `this configuration sends an Authorization header, but ${claimedBy} saw none`
        : `WARDEN_TOKEN is set, but ${claimedBy} reports no token`,
    );
  }
  if (d.tools) {
    const claimed = d.tools.filter((t) => t.visible).map((t) => t.name);
    const notServed = claimed.filter((n) => !served.includes(n));
    const unclaimed = served.filter((n) => !claimed.includes(n));
    if (notServed.length > 0)
      problems.push(`${claimedBy} says you see ${notServed.join(', ')}, but tools/list did not return them`);
    if (unclaimed.length > 0)
      problems.push(`tools/list returned ${unclaimed.join(', ')}, which ${claimedBy} says you do not see`);
  } else if (d.visible !== null && d.visible !== served.length) {
    problems.push(`tools/list returned ${served.length} tools, but ${claimedBy} claims ${d.visible}`);
  }
  const allowed = catalog?.tiers[d.tier]?.tools;
  if (allowed) {
    const beyond = served.filter((n) => !allowed.includes(n));
    if (beyond.length > 0)
      problems.push(
        `tools/list returned ${beyond.join(', ')}, which the ${d.tier} tier's catalog does not include`,
      );
  }
  return problems;
}

/** Whether the claim says enough to compare with what was served (a tool list, a count, or a catalog). */
export function canCrossCheck(d: Diagnosis, catalog: TierCatalog | null): boolean {
  return d.tools !== null || d.visible !== null || Boolean(catalog?.tiers[d.tier]);
}

/** The lowest tier whose catalog holds every served tool: the tier that was really served. */
export function tierServed(served: string[], catalog: TierCatalog | null): Tier | null {
  if (!catalog) return null;
  for (const tier of TIERS) {
    const tools = catalog.tiers[tier]?.tools;
    if (tools && served.every((n) => tools.includes(n))) return tier;
  }
  return null;
}
