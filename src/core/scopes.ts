/** The seven scopes of the club. Order is the canonical display order. */
export const SCOPES = [
  'profile:write',
  'evidence:write',
  'inbox',
  'mandate:read',
  'consult',
  'vouch',
  'mandate:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** The one scope that never reaches an agent: an agent able to change its own terms is not under terms. */
export const PRINCIPAL_ONLY_SCOPE: Scope = 'mandate:write';

/** Scopes an agent token may ever carry (all but mandate:write). */
export const AGENT_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== PRINCIPAL_ONLY_SCOPE);

const known = new Set<string>(SCOPES);

export function isScope(value: string): value is Scope {
  return known.has(value);
}

/** Sorts and de-duplicates scopes into canonical order, so sets compare and print stably. */
export function canonicalScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set(scopes);
  return SCOPES.filter((s) => set.has(s));
}

/**
 * Parses a comma-separated scope list. Unknown names are returned separately
 * so callers can refuse with the exact offending names instead of dropping them.
 */
export function parseScopeList(text: string): { scopes: Scope[]; unknown: string[] } {
  const scopes: Scope[] = [];
  const unknown: string[] = [];
  for (const raw of text.split(',')) {
    const name = raw.trim();
    if (!name) continue;
    if (isScope(name)) scopes.push(name);
    else unknown.push(name);
  }
  return { scopes: canonicalScopes(scopes), unknown };
}
