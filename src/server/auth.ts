import { computePermissions, anonymousPermissions } from '../core/policy/index.ts';
import { looksLikeToken, hashToken } from '../core/tokens.ts';
import { tierOfStatus } from '../core/tiers.ts';
import { StoreBusyError } from '../store/busy.ts';
import type { Credential, Store } from '../store/contract.ts';
import type { Caller } from '../tools/context.ts';

/** Why a present credential was rejected. Each is a loud 401, never a downgrade to anonymous. */
type RejectionCode = 'malformed' | 'unknown' | 'expired' | 'revoked' | 'suspended' | 'wrong_audience';

/** What the authorization server says of a bearer value that is not a static agent token. */
export type AccessTokenUse =
  | { kind: 'grant'; grantId: string; scopes: string[]; clientId: string }
  | { kind: 'wrong_audience'; audience: string }
  | { kind: 'unknown' };

/** Looks an OAuth access token up (wired by the CLI when Warden is its own authorization server). */
export type AccessTokenResolver = (token: string) => Promise<AccessTokenUse>;

export type Authentication =
  | { kind: 'anonymous'; caller: Caller }
  | { kind: 'agent'; caller: Caller; credential: Credential }
  | {
      kind: 'rejected';
      code: RejectionCode;
      message: string;
      credential?: Credential;
      /** Set when an unknown token meets a store with no principals: the store is the likely fault. */
      emptyStore?: true;
    };

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
  resolveAccessToken?: AccessTokenResolver,
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
  if (looksLikeToken(token)) {
    const credential = await store.findCredential(hashToken(token));
    if (!credential) return unknownToken(store);
    return admit(store, credential, now, null);
  }
  if (resolveAccessToken && OAUTH_TOKEN_SHAPE.test(token)) {
    const use = await resolveAccessToken(token);
    if (use.kind === 'wrong_audience') {
      return {
        kind: 'rejected',
        code: 'wrong_audience',
        message: `The access token was issued for another resource (${use.audience}), not for this server's /mcp.`,
      };
    }
    const credential = use.kind === 'grant' ? await store.findCredentialByGrant(use.grantId) : null;
    if (use.kind === 'unknown' || !credential)
      return {
        kind: 'rejected',
        code: 'unknown',
        message: 'The access token is not known to this server, or it has expired or been revoked.',
      };
    return admit(store, credential, now, use.scopes);
  }
  return {
    kind: 'rejected',
    code: 'malformed',
    message: resolveAccessToken
      ? 'The bearer token is neither a Warden agent token (wdn_…) nor an access token this server issued.'
      : 'The bearer token is not a Warden agent token (wdn_…).',
  };
}

/** Access tokens of the authorization server: opaque, URL-safe, bounded. */
const OAUTH_TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,256}$/;

/**
 * The checks every credential passes, static or OAuth: revoked, expired, suspended.
 * An OAuth access token narrows its connection's scopes to those it carries.
 */
async function admit(
  store: Store,
  credential: Credential,
  now: Date,
  accessScopes: string[] | null,
): Promise<Authentication> {
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
  const tokenScopes = accessScopes ? t.scopes.filter((x) => accessScopes.includes(x)) : t.scopes;
  const permissions = computePermissions(tier, tokenScopes, mandate.scopes);
  return { kind: 'agent', credential, caller: { kind: 'agent', permissions, principal, token: t, mandate } };
}

/** Said when a token on an empty store is refused: the store, not the token, is what is wrong. */
const EMPTY_STORE_HINT =
  "This server's store has no principals at all: it is most likely not the store the token was issued from (a new, empty one was opened). Point the server at the right store (--db or WARDEN_DB) rather than issuing a new token.";

/**
 * A token this store has never seen. On a store with no principals at all that is
 * almost always the wrong store (a server started from another directory, or a
 * mistyped --db), so the answer says so instead of inviting a new token.
 */
async function unknownToken(store: Store): Promise<Authentication> {
  const message = 'The bearer token is not known to this server.';
  if (await store.hasPrincipals()) return { kind: 'rejected', code: 'unknown', message };
  return { kind: 'rejected', code: 'unknown', message: `${message} ${EMPTY_STORE_HINT}`, emptyStore: true };
}
