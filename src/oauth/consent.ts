import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { revokeToken } from '../admin/tokens.ts';
import { AGENT_SCOPES, isScope, type Scope } from '../core/scopes.ts';
import { TIER_CEILING, tierOfStatus } from '../core/tiers.ts';
import { hashToken } from '../core/tokens.ts';
import type { PrincipalRecord, Store, TokenRecord } from '../store/contract.ts';
import type { AuthorizationServer } from './provider.ts';

/** What the consent page shows about a client: all of it the client's own say-so, so marked unverified. */
export interface ClientFacts {
  id: string;
  name: string;
  uri: string | null;
  logo: string | null;
  /** How Warden knows the client: its metadata document, dynamic registration, or the operator's configuration. */
  registration: 'metadata_document' | 'dynamic' | 'configured';
}

export interface PendingConsent {
  uid: string;
  client: ClientFacts;
  /** The scopes the client asked for, as it asked (unknown ones included, to be shown and not granted). */
  requested: string[];
  resource: string;
}

/** Scopes a principal may grant an agent now: their tier's ceiling within their mandate, never mandate:write. */
export function grantableScopes(principal: PrincipalRecord, mandateScopes: readonly string[]): Scope[] {
  const tier = tierOfStatus(principal.status);
  if (!tier) return [];
  return AGENT_SCOPES.filter((s) => TIER_CEILING[tier].includes(s) && mandateScopes.includes(s));
}

/** The interaction behind a consent page, or null when the browser has none (expired, or opened elsewhere). */
export async function pendingConsent(
  as: AuthorizationServer,
  base: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<PendingConsent | null> {
  const provider = await as.provider(base);
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    return null;
  }
  const clientId = String(details.params['client_id'] ?? '');
  const client = await provider.Client.find(clientId);
  if (!client) return null;
  const configured = await isConfigured(as, base, clientId);
  const meta = client.metadata();
  return {
    uid: details.uid,
    client: {
      id: clientId,
      name: typeof meta.client_name === 'string' && meta.client_name.trim() ? meta.client_name : clientId,
      uri: typeof meta.client_uri === 'string' ? meta.client_uri : null,
      logo: typeof meta.logo_uri === 'string' ? meta.logo_uri : null,
      registration: /^https:\/\//.test(clientId)
        ? 'metadata_document'
        : configured
          ? 'configured'
          : 'dynamic',
    },
    requested: String(details.params['scope'] ?? '')
      .split(' ')
      .filter(Boolean),
    resource: String(details.params['resource'] ?? ''),
  };
}

async function isConfigured(as: AuthorizationServer, base: string, clientId: string): Promise<boolean> {
  return (await as.configuredClientIds(base)).includes(clientId);
}

/** A token label from a client's name: the label rules of every agent token, whatever the client calls itself. */
export function labelFor(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._:@/()-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 64)
    .trim();
  return cleaned || 'OAuth client';
}

/**
 * The principal approves: their previous connection of this client (if any) is revoked,
 * a grant for exactly `scopes` on this server's /mcp is saved, and an agent token row in
 * the tokens table stands for it (origin oauth, the client id kept), so mandate,
 * revocation and suspension act on it like on any token. Returns where to send the browser.
 */
export async function approveConsent(
  as: AuthorizationServer,
  store: Store,
  base: string,
  req: IncomingMessage,
  res: ServerResponse,
  pending: PendingConsent,
  principal: PrincipalRecord,
  scopes: Scope[],
  now: Date,
): Promise<string> {
  const provider = await as.provider(base);
  for (const t of await connectionsOf(store, principal.id, pending.client.id, now))
    await revokeToken(store, t.id, now);
  const grant = new provider.Grant({ accountId: principal.id, clientId: pending.client.id });
  grant.addResourceScope(pending.resource, scopes.join(' '));
  // offline_access (refresh tokens) when asked for: refresh ends with revocation or suspension anyway.
  const oidc = pending.requested.filter((s) => s === 'offline_access');
  if (oidc.length) grant.addOIDCScope(oidc.join(' '));
  const grantId = await grant.save();
  await store.insertToken({
    principalId: principal.id,
    label: labelFor(pending.client.name),
    // Never presented: an OAuth connection is used through its access tokens only.
    hash: hashToken(`oauth:${randomBytes(32).toString('base64url')}`),
    scopes,
    expiresAt: null,
    origin: 'oauth',
    clientId: pending.client.id,
    grantId,
  });
  return provider.interactionResult(
    req,
    res,
    { login: { accountId: principal.id }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

/** The principal declines: the client receives access_denied and nothing is issued. */
export async function denyConsent(
  as: AuthorizationServer,
  base: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<string> {
  const provider = await as.provider(base);
  return provider.interactionResult(
    req,
    res,
    { error: 'access_denied', error_description: 'The principal declined to connect this client.' },
    { mergeWithLastSubmission: false },
  );
}

/** A principal's live OAuth connections of one client. */
async function connectionsOf(
  store: Store,
  principalId: string,
  clientId: string,
  now: Date,
): Promise<TokenRecord[]> {
  return (await store.listTokens(principalId)).filter(
    (t) =>
      t.origin === 'oauth' &&
      t.clientId === clientId &&
      !t.revokedAt &&
      (!t.expiresAt || Date.parse(t.expiresAt) > now.getTime()),
  );
}

/** Keeps only real agent scopes the principal may grant, in canonical order. */
export function chosenScopes(values: string[], grantable: readonly Scope[]): Scope[] {
  const picked = new Set(values.filter(isScope));
  return grantable.filter((s) => picked.has(s));
}
