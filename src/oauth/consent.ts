import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminDeps } from '../admin/as-principal.ts';
import { issueAgentToken } from '../admin/tokens.ts';
import { consentedScopes, consentOffer, grantableScopes, type ConsentOffer } from '../core/policy/index.ts';
import type { PrincipalRecord, Store } from '../store/contract.ts';
import { holdingSaves } from './adapter.ts';
import type { AuthorizationServer } from './provider.ts';

/** What the consent page shows about a client: all of it the client's own say-so, so marked unverified. */
interface ClientFacts {
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

/**
 * What the consent page offers this principal for this request, from their tier and
 * mandate as they are now: the page shows it, and approval grants only from it.
 */
export async function offerFor(
  store: Store,
  principal: PrincipalRecord,
  pending: PendingConsent,
): Promise<ConsentOffer> {
  const mandate = await store.getMandate(principal.id);
  return consentOffer(pending.requested, grantableScopes(principal.status, mandate.scopes));
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
function labelFor(name: string): string {
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
 * The principal approves: exactly the offered scopes they chose are granted (none
 * chosen: null, nothing is written). A grant for them on this server's /mcp and an
 * agent token row that stands for it (origin oauth, the client id kept, so mandate,
 * revocation and suspension act on it like on any token) are written in one
 * transaction that also ends the principal's earlier connection of this client.
 * Returns where to send the browser.
 */
export async function approveConsent(
  as: AuthorizationServer,
  deps: Pick<AdminDeps, 'store' | 'registry'>,
  base: string,
  http: { req: IncomingMessage; res: ServerResponse },
  pending: PendingConsent,
  answer: {
    principal: PrincipalRecord;
    offer: ConsentOffer;
    chosen: readonly string[];
    now: Date;
    /** How long the connection lasts, as the principal chose ("30d", "never"); until disconnected when absent. */
    expires?: string;
  },
): Promise<string | null> {
  const scopes = consentedScopes(answer.chosen, answer.offer.offered);
  if (scopes.length === 0) return null;
  const { principal } = answer;
  const provider = await as.provider(base);
  const grant = new provider.Grant({ accountId: principal.id, clientId: pending.client.id });
  grant.addResourceScope(pending.resource, scopes.join(' '));
  // offline_access (refresh tokens) when asked for: refresh ends with revocation or suspension anyway.
  if (answer.offer.staysConnected) grant.addOIDCScope('offline_access');
  // The grant is built by the library but written by the store, with the token row, or not at all.
  const { result: grantId, saves } = await holdingSaves(() => grant.save());
  const saved = saves.find((r) => r.model === 'Grant' && r.id === grantId);
  if (!saved || saves.length !== 1) throw new Error('the grant was not saved as one Grant record');
  await issueAgentToken(deps.store, deps.registry, principal.handle, {
    scopes,
    label: labelFor(pending.client.name),
    now: answer.now,
    ...(answer.expires ? { expires: answer.expires } : {}),
    oauth: { clientId: pending.client.id, grant: saved },
  });
  return provider.interactionResult(
    http.req,
    http.res,
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
