import { computePermissions, anonymousPermissions } from '../core/permissions.ts';
import { looksLikeToken, hashToken } from '../core/tokens.ts';
import { tierOfStatus } from '../core/tiers.ts';
import { StoreBusyError } from '../store/busy.ts';
import type { Credential, Store } from '../store/contract.ts';
import type { Caller } from '../tools/context.ts';

/** Why a present credential was rejected. Each is a loud 401, never a downgrade to anonymous. */
export type RejectionCode = 'malformed' | 'unknown' | 'expired' | 'revoked' | 'suspended';

export type Authentication =
  | { kind: 'anonymous'; caller: Caller }
  | { kind: 'agent'; caller: Caller; credential: Credential }
  | { kind: 'rejected'; code: RejectionCode; message: string; credential?: Credential };

/** How the Authorization header arrived, for diagnosis. */
export type HeaderShape = 'absent' | 'bearer' | 'not_bearer' | 'empty_bearer';

export function headerShape(header: string | undefined): HeaderShape {
  if (header === undefined) return 'absent';
  const m = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  if (!m) return 'not_bearer';
  return m[1]?.trim() ? 'bearer' : 'empty_bearer';
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves the caller of one request from its Authorization header, reading the
 * token, its principal and the mandate from the store now: nothing is cached, so a
 * narrowed mandate, a revocation or a suspension is in force at the next request.
 * No header at all means anonymous; a header that is there but bad is rejected.
 */
export async function authenticate(
  store: Store,
  header: string | undefined,
  now: Date,
): Promise<Authentication> {
  const shape = headerShape(header);
  if (shape === 'absent')
    return { kind: 'anonymous', caller: { kind: 'anonymous', permissions: anonymousPermissions() } };
  if (shape !== 'bearer') {
    return {
      kind: 'rejected',
      code: 'malformed',
      message:
        shape === 'not_bearer'
          ? 'The Authorization header is not a Bearer credential.'
          : 'The Authorization header says Bearer but carries no token.',
    };
  }
  const token = /^Bearer\s+(.*)$/i.exec(header!.trim())![1]!.trim();
  if (!looksLikeToken(token)) {
    return {
      kind: 'rejected',
      code: 'malformed',
      message: 'The bearer token is not a Warden agent token (wdn_…).',
    };
  }
  const credential = await store.findCredential(hashToken(token));
  if (!credential)
    return { kind: 'rejected', code: 'unknown', message: 'The bearer token is not known to this server.' };
  const { token: t, principal, mandate } = credential;
  if (t.revokedAt) {
    return {
      kind: 'rejected',
      code: 'revoked',
      message: `The token was revoked on ${t.revokedAt}.`,
      credential,
    };
  }
  if (t.expiresAt && Date.parse(t.expiresAt) <= now.getTime()) {
    return { kind: 'rejected', code: 'expired', message: `The token expired on ${t.expiresAt}.`, credential };
  }
  const tier = tierOfStatus(principal.status);
  if (tier === null) {
    return {
      kind: 'rejected',
      code: 'suspended',
      message: "The token's principal is suspended; its tokens are refused until the club reinstates them.",
      credential,
    };
  }
  if (!t.lastUsedAt || now.getTime() - Date.parse(t.lastUsedAt) > TOUCH_INTERVAL_MS) {
    // Bookkeeping only: a store locked by other writers must not fail (or hold) the request.
    await store.touchToken(t.id, now.toISOString()).catch((err: unknown) => {
      if (!(err instanceof StoreBusyError)) throw err;
    });
  }
  const permissions = computePermissions(tier, t.scopes, mandate.scopes);
  return { kind: 'agent', credential, caller: { kind: 'agent', permissions, principal, token: t, mandate } };
}
