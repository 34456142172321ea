import { parseScopeList, PRINCIPAL_ONLY_SCOPE } from '../core/scopes.ts';
import { generateToken, hashToken } from '../core/tokens.ts';
import { TIER_CEILING, tierOfStatus } from '../core/tiers.ts';
import type { Registry } from '../core/registry.ts';
import { computePermissions } from '../core/permissions.ts';
import type { Store, TokenRecord } from '../store/contract.ts';
import type { ToolContext } from '../tools/index.ts';
import { AdminRefusal } from './errors.ts';
import { staleOutcome } from './decisions.ts';
import { requirePrincipal } from './principals.ts';

const LABEL = /^[\p{L}\p{N} ._:@/()-]{1,64}$/u;

/** Parses "30d", "12h", "90m" or "never" into an expiry instant (null = never). */
export function parseExpiry(text: string | undefined, now: Date): string | null {
  if (text === undefined) return new Date(now.getTime() + 90 * 86_400_000).toISOString();
  if (text === 'never') return null;
  const m = /^(\d{1,5})([dhm])$/.exec(text);
  if (!m)
    throw new AdminRefusal(
      'invalid_value',
      `--expires takes a duration such as 30d, 12h or 90m, or "never"; got "${text}".`,
    );
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  const n = Number(m[1]);
  if (n < 1) throw new AdminRefusal('invalid_value', '--expires must be at least 1 minute.');
  return new Date(now.getTime() + n * unit).toISOString();
}

export interface IssuedToken {
  token: string;
  record: TokenRecord;
  /** The tools this token sees today, given the principal's mandate and tier now. */
  preview: string[];
}

/**
 * Issues an agent token: shown once, stored only as a hash. Refuses mandate:write,
 * unknown scopes and scopes above the principal's tier, each by name.
 */
export async function issueToken(
  store: Store,
  registry: Registry<ToolContext>,
  handle: string,
  opts: {
    scopes: string;
    label?: string;
    expires?: string;
    now?: Date;
    /** A candidate may also take member scopes, inert until the club admits them. */
    afterAdmission?: boolean;
  },
): Promise<IssuedToken> {
  const now = opts.now ?? new Date();
  const p = await requirePrincipal(store, handle);
  const tier = tierOfStatus(p.status);
  if (tier === null) throw new AdminRefusal('suspended', `${handle} is suspended; no token can be issued.`);
  const { scopes, unknown } = parseScopeList(opts.scopes);
  if (unknown.length) {
    throw new AdminRefusal('unknown_scope', `Unknown scope(s): ${unknown.join(', ')}.`);
  }
  if (scopes.includes(PRINCIPAL_ONLY_SCOPE)) {
    throw new AdminRefusal(
      'scope_not_grantable',
      'mandate:write is never issued to an agent: only the principal changes the mandate, through the console.',
    );
  }
  const ceiling = opts.afterAdmission ? TIER_CEILING.member : TIER_CEILING[tier];
  const above = scopes.filter((s) => !ceiling.includes(s));
  if (above.length) {
    throw new AdminRefusal(
      'above_tier',
      `${above.join(', ')} ${above.length === 1 ? 'is' : 'are'} above the ${tier} tier of ${handle} (ceiling: ${TIER_CEILING[tier].join(', ')}).`,
      tier === 'candidate' && !opts.afterAdmission
        ? 'Leave them out, or ask for them "for after admission": they stay inert until the club admits you.'
        : '',
    );
  }
  const label = opts.label ?? 'agent';
  if (!LABEL.test(label)) {
    throw new AdminRefusal('invalid_value', 'A label is 1 to 64 letters, digits, spaces or . _ : @ / ( ) -.');
  }
  const token = generateToken();
  const record = await store.insertToken({
    principalId: p.id,
    label,
    hash: hashToken(token),
    scopes,
    expiresAt: parseExpiry(opts.expires, now),
  });
  const mandate = await store.getMandate(p.id);
  const preview = registry
    .list(computePermissions(tier, scopes, mandate.scopes).effective)
    .map((t) => t.name);
  return { token, record, preview };
}

/**
 * Revokes a token, and in the same write withdraws every decision its agent queued
 * that is still pending: each is closed as stale with the reason on its record.
 */
export async function revokeToken(store: Store, id: string, now = new Date()): Promise<TokenRecord> {
  const t = await store.getToken(id);
  if (!t) throw new AdminRefusal('not_found', `No token has the id "${id}".`);
  if (t.revokedAt) throw new AdminRefusal('conflict', `Token ${id} was revoked already, on ${t.revokedAt}.`);
  const at = now.toISOString();
  const withdrawal = staleOutcome(
    'token_revoked',
    `The token that asked (${id}) was revoked on ${at}, which withdrew the requests its agent had queued.`,
  );
  await store.revokeToken(id, at, withdrawal);
  return (await store.getToken(id))!;
}
