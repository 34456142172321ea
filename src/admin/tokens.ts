import { randomBytes } from 'node:crypto';
import { evaluateIssuable, toolsSeen } from '../core/policy/index.ts';
import type { Registry } from '../core/registry.ts';
import { generateToken, hashToken } from '../core/tokens.ts';
import type { OAuthSaved, Store, TokenRecord } from '../store/contract.ts';
import type { ToolContext } from '../tools/index.ts';
import { AdminRefusal } from './errors.ts';
import { staleOutcome } from './stale.ts';
import { requirePrincipal } from './principals.ts';

const LABEL = /^[\p{L}\p{N} ._:@/()-]{1,64}$/u;

/** Parses "30d", "12h", "90m" or "never" into an expiry instant (null = never). */
function parseExpiry(text: string | undefined, now: Date): string | null {
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

export interface AgentTokenRequest {
  /** As asked: comma-separated (CLI) or a list (console, consent page). */
  scopes: string | readonly string[];
  label?: string;
  /** "30d", "12h", "90m" or "never"; 90 days when absent. */
  expires?: string;
  now?: Date;
  /** A candidate may also take member scopes, inert until the club admits them. */
  afterAdmission?: boolean;
}

/**
 * A client the principal approved on the consent page: its token row stands for `grant`
 * and lasts as the principal chose (`expires`), or until revoked when they chose "never"
 * or nothing.
 */
export interface OAuthConnectionRequest extends AgentTokenRequest {
  oauth: { clientId: string; grant: OAuthSaved };
}

export interface IssuedToken {
  /** The bearer secret, shown once and stored only as a hash. */
  token: string;
  record: TokenRecord;
  /** The tools this token sees today, given the principal's mandate and tier now. */
  preview: string[];
}

/** An OAuth connection has no secret of its own: its client uses the access tokens of its grant. */
export type IssuedConnection = Omit<IssuedToken, 'token'> & { token: null };

/**
 * Issues an agent token, whoever asks: the admin CLI, the console's tokens page, or
 * OAuth consent (`oauth`). Refuses what policy does not allow on any agent token
 * (a suspended principal, unknown scopes, mandate:write, scopes above the tier),
 * each by name. A static token is shown once and stored only as a hash. An OAuth
 * connection is written in one transaction with its grant, ending the principal's
 * earlier connection of the same client: on any failure nothing is written.
 */
export async function issueAgentToken(
  store: Store,
  registry: Registry<ToolContext>,
  handle: string,
  req: OAuthConnectionRequest,
): Promise<IssuedConnection>;
export async function issueAgentToken(
  store: Store,
  registry: Registry<ToolContext>,
  handle: string,
  req: AgentTokenRequest,
): Promise<IssuedToken>;
export async function issueAgentToken(
  store: Store,
  registry: Registry<ToolContext>,
  handle: string,
  req: AgentTokenRequest & { oauth?: OAuthConnectionRequest['oauth'] },
): Promise<IssuedToken | IssuedConnection> {
  const now = req.now ?? new Date();
  const p = await requirePrincipal(store, handle);
  const verdict = evaluateIssuable({
    handle,
    status: p.status,
    scopes: req.scopes,
    ...(req.afterAdmission ? { afterAdmission: true } : {}),
  });
  if (!verdict.ok) throw new AdminRefusal(verdict.code, verdict.reason, verdict.next);
  const { tier, scopes } = verdict;
  const label = req.label ?? 'agent';
  if (!LABEL.test(label)) {
    throw new AdminRefusal('invalid_value', 'A label is 1 to 64 letters, digits, spaces or . _ : @ / ( ) -.');
  }
  const preview = async () => toolsSeen(registry, tier, scopes, (await store.getMandate(p.id)).scopes);
  if (req.oauth) {
    const at = now.toISOString();
    const record = await store.connectOAuthClient({
      principalId: p.id,
      clientId: req.oauth.clientId,
      label,
      // Never presented, and not of a bearer token's form: nothing can sign in with it.
      hash: hashToken(`oauth:${randomBytes(32).toString('base64url')}`),
      scopes,
      expiresAt: req.expires === undefined ? null : parseExpiry(req.expires, now),
      grant: req.oauth.grant,
      at,
      withdrawal: staleOutcome(
        'token_revoked',
        `The connection that asked was replaced on ${at}, when the principal connected the same client again, which withdrew the requests its agent had queued.`,
      ),
    });
    return { token: null, record, preview: await preview() };
  }
  const token = generateToken();
  const record = await store.insertToken({
    principalId: p.id,
    label,
    hash: hashToken(token),
    scopes,
    expiresAt: parseExpiry(req.expires, now),
  });
  return { token, record, preview: await preview() };
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
