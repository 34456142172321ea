import { getJson } from './http-json.ts';
import { isObject, strings, wrappedText } from './json.ts';
import { isTier, type Tier } from './types.ts';

/** GET /tiers: the public catalog, which tools each tier could see. */
export interface TierCatalog {
  total: number;
  tiers: Partial<Record<Tier, { tools: string[]; ceiling: string[] }>>;
  tools: { name: string; scope: string | null }[];
}

export interface DiagnosedTool {
  name: string;
  scope: string | null;
  visible: boolean;
  missing: string[];
}

/** GET /diagnose as the doctor reads it: what the server says this caller gets. */
export interface Diagnosis {
  headerPresent: boolean;
  headerShape: string | null;
  tier: Tier;
  visible: number | null;
  total: number | null;
  principal: { handle: string; status: string } | null;
  token: {
    id: string;
    label: string;
    expires_at: string | null;
    /** 'oauth' for a client connected through the consent page, with its client id. */
    origin: 'static' | 'oauth';
    client_id: string | null;
  } | null;
  scopes: { token: string[]; mandate: string[]; tier_ceiling: string[]; effective: string[] } | null;
  tools: DiagnosedTool[] | null;
}

/**
 * A credential the server refused, with its stable reason code: a present one (HTTP 401, or
 * a stdio process that stopped on it), or none where one is required (NO_TOKEN).
 */
export interface Rejection {
  reason: string;
  description: string;
  /** The server's store has no principals at all: the likely fault is the store, not the token. */
  emptyStore: boolean;
}

/** Warden's words for an unknown token on an empty store (also over stdio, where only text arrives). */
const EMPTY_STORE = /store has no principals at all/;

/**
 * The reason of a credential that never reached the server: `warden stdio` given no
 * WARDEN_TOKEN refuses to start rather than serve the anonymous tier unasked. Not a code
 * the server gives over HTTP, where a request without a credential is simply anonymous.
 */
export const NO_TOKEN = 'no_token';

export function rejection(reason: string, description: string, emptyStore = false): Rejection {
  return { reason, description, emptyStore: emptyStore || EMPTY_STORE.test(description) };
}

export type DiagnoseAnswer =
  | { kind: 'diagnosis'; diagnosis: Diagnosis }
  | { kind: 'rejected'; rejection: Rejection }
  | { kind: 'absent'; why: string };

/** Where Warden serves /tiers and /diagnose: beside the MCP path, on the same HTTP server. */
function besideMcp(mcpUrl: string, path: string): string {
  const url = new URL(mcpUrl);
  const base = url.pathname.replace(/\/+$/, '').replace(/\/mcp$/, '');
  return `${url.origin}${base}${path}`;
}

export async function readTiers(mcpUrl: string, timeoutMs: number): Promise<TierCatalog | null> {
  const answer = await getJson(besideMcp(mcpUrl, '/tiers'), {}, timeoutMs);
  if (!answer.ok || answer.status !== 200 || !isObject(answer.body)) return null;
  const b = answer.body;
  if (b['server'] !== 'warden' || typeof b['total'] !== 'number' || !isObject(b['tiers'])) return null;
  const tiers: TierCatalog['tiers'] = {};
  for (const [tier, entry] of Object.entries(b['tiers'])) {
    if (isTier(tier) && isObject(entry))
      tiers[tier] = { tools: strings(entry['tools']), ceiling: strings(entry['ceiling']) };
  }
  const tools = (Array.isArray(b['tools']) ? b['tools'] : []).filter(isObject).map((t) => ({
    name: String(t['name']),
    scope: typeof t['scope'] === 'string' ? t['scope'] : null,
  }));
  return { total: b['total'], tiers, tools };
}

/** Asks /diagnose with exactly the headers the client sends. */
export async function readDiagnosis(
  mcpUrl: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<DiagnoseAnswer> {
  const answer = await getJson(besideMcp(mcpUrl, '/diagnose'), headers, timeoutMs);
  if (!answer.ok) return { kind: 'absent', why: answer.failure.message };
  const b = answer.body;
  // Only Warden's 401 names a reason code; another server's 401 says nothing about tiers.
  if (answer.status === 401 && isObject(b) && typeof b['reason'] === 'string')
    return { kind: 'rejected', rejection: rejectionFrom(b, answer.wwwAuthenticate) };
  if (answer.status !== 200 || !isObject(b) || b['server'] !== 'warden' || !isTier(b['tier']))
    return { kind: 'absent', why: `GET /diagnose answered HTTP ${answer.status}` };
  const header = isObject(b['header']) ? b['header'] : {};
  const principal = isObject(b['principal']) ? b['principal'] : null;
  const token = isObject(b['token']) ? b['token'] : null;
  const scopes = isObject(b['scopes']) ? b['scopes'] : null;
  return {
    kind: 'diagnosis',
    diagnosis: {
      headerPresent: header['present'] === true,
      headerShape: typeof header['shape'] === 'string' ? header['shape'] : null,
      tier: b['tier'],
      visible: typeof b['visible'] === 'number' ? b['visible'] : null,
      total: typeof b['total'] === 'number' ? b['total'] : null,
      principal: principal
        ? { handle: String(principal['handle']), status: String(principal['status']) }
        : null,
      token: token
        ? {
            id: String(token['id']),
            label: wrappedText(token['label']),
            expires_at: typeof token['expires_at'] === 'string' ? token['expires_at'] : null,
            origin: token['origin'] === 'oauth' ? 'oauth' : 'static',
            client_id: typeof token['client_id'] === 'string' ? token['client_id'] : null,
          }
        : null,
      scopes: scopes
        ? {
            token: strings(scopes['token']),
            mandate: strings(scopes['mandate']),
            tier_ceiling: strings(scopes['tier_ceiling']),
            effective: strings(scopes['effective']),
          }
        : null,
      tools: Array.isArray(b['tools']) ? b['tools'].filter(isObject).map(diagnosedTool) : null,
    },
  };
}

/** Reads a 401's reason from its JSON body, else from the WWW-Authenticate challenge. */
export function rejectionFrom(body: unknown, challenge: string | null): Rejection {
  if (isObject(body) && typeof body['reason'] === 'string')
    return rejection(body['reason'], String(body['error_description'] ?? ''), body['empty_store'] === true);
  const description = challenge ? (/error_description="([^"]*)"/.exec(challenge)?.[1] ?? '') : '';
  return rejection('unknown', description);
}

/** What protected-resource metadata says of signing in: the authorization servers and the scopes offered. */
export interface OAuthOffer {
  authorizationServers: string[];
  scopes: string[];
}

/**
 * RFC 9728: metadata for a resource at /p lives at /.well-known/oauth-protected-resource/p.
 * Null when there is none; `oauth` set when it names an authorization server.
 */
export async function readProtectedResourceMetadata(
  mcpUrl: string,
  timeoutMs: number,
): Promise<{ oauth: OAuthOffer | null } | null> {
  const url = new URL(mcpUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const candidates = [...new Set([path, ''])].map(
    (p) => `${url.origin}/.well-known/oauth-protected-resource${p}`,
  );
  const found = await Promise.all(
    candidates.map(async (candidate) => {
      const answer = await getJson(candidate, {}, timeoutMs);
      if (!answer.ok || answer.status !== 200 || !isObject(answer.body)) return null;
      const b = answer.body;
      if (typeof b['resource'] !== 'string') return null;
      const servers = strings(b['authorization_servers']);
      return {
        oauth: servers.length
          ? { authorizationServers: servers, scopes: strings(b['scopes_supported']) }
          : null,
      };
    }),
  );
  return found.find((f) => f !== null) ?? null;
}

function diagnosedTool(t: Record<string, unknown>): DiagnosedTool {
  return {
    name: String(t['name']),
    scope: typeof t['scope'] === 'string' ? t['scope'] : null,
    visible: t['visible'] === true,
    missing: strings(t['missing']),
  };
}
