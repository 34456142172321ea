import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { errors, interactionPolicy, type ClientMetadata, type Configuration } from 'oidc-provider';
import { AGENT_SCOPES } from '../core/scopes.ts';
import { tierOfStatus } from '../core/tiers.ts';
import type { Store } from '../store/contract.ts';
import { StoreAdapter } from './adapter.ts';
import { resolvesPublicly } from './addresses.ts';
import { devFetch } from './dev-fetch.ts';
import { signingKey } from './keys.ts';

export interface AuthorizationServerOptions {
  store: Store;
  now?: () => Date;
  /** Access token lifetime in seconds (default 3600: one hour). */
  accessTokenTtl?: number;
  /** Authorization code lifetime in seconds (default 60). */
  codeTtl?: number;
  /** Clients registered by the operator's configuration (client_id, redirect_uris, client_name…). */
  clients?: ClientMetadata[];
  /**
   * Development only: client metadata documents may be served from loopback and private
   * addresses, over TLS that trusts `metadataCa` (PEM) besides the system's authorities.
   */
  development?: { privateMetadataHosts: true; metadataCa?: string };
  /** Told of every refusal and failure inside the library, with its detail (for the log). */
  onEvent?: (event: string, err: Error & { error_detail?: string }) => void;
}

/** Where the authorization server lives under the server's base URL. */
const OAUTH_PREFIX = '/oauth';
const WELL_KNOWN = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
/** The console page that signs the principal in and asks for consent. */
const CONSENT_PATH = '/console/oauth/';

/** The largest client metadata document fetched (bytes); the library refuses anything longer. */
const METADATA_DOCUMENT_LIMIT = 5 * 1024;

/** What Warden's edge needs from its authorization server. */
export interface AuthorizationServer {
  owns(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, base: string): Promise<void>;
  provider(base: string): Promise<Provider>;
  /** The issuer that serves a server base URL (what protected-resource metadata names). */
  issuer(base: string): string;
  /** The scopes a client may ask for: every agent scope (mandate:write never). */
  readonly scopes: readonly string[];
  /** Ids of the clients the operator's configuration registered. */
  configuredClientIds(base: string): Promise<string[]>;
}

/**
 * The library's prompts, with one change: consent is satisfied by the principal's answer
 * on the consent page for this very request, whatever subset of the asked-for scopes they
 * picked (the library's own check would ask again until every requested scope is granted).
 */
function consentPolicy() {
  const policy = interactionPolicy.base();
  const consent = policy.get('consent')!;
  consent.checks.remove('rs_scopes_missing');
  consent.checks.remove('op_scopes_missing');
  consent.checks.add(
    new interactionPolicy.Check(
      'principal_decides',
      'the principal picks the scopes of every authorization on the consent page',
      (ctx) =>
        ctx.oidc.result?.['consent']
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT,
    ),
  );
  return policy;
}

/** Hosts a plain-http redirect URI may name: the principal's own machine (RFC 8252 §7.3), nothing a network can see. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a client's redirect URIs are refused, or null: a plain-http URI on any host
 * but loopback would carry the authorization code in the clear across a network.
 * The operator's own configured clients are not judged here: they are its choice.
 */
function plainHttpRedirect(uris: unknown): string | null {
  if (!Array.isArray(uris)) return null;
  for (const uri of uris) {
    const u = typeof uri === 'string' ? URL.parse(uri) : null;
    if (u?.protocol === 'http:' && !LOOPBACK_HOSTS.has(u.hostname)) {
      return `redirect_uris over plain http are accepted only on a loopback host (127.0.0.1, [::1] or localhost, RFC 8252); ${u.host} is not one: use https for ${u.origin}`;
    }
  }
  return null;
}

/** The MCP endpoint a base URL serves: the one resource this authorization server issues tokens for. */
export function resourceOf(base: string): string {
  return `${base}/mcp`;
}

/**
 * Warden as the authorization server for its own /mcp, built on `oidc-provider`
 * (certified OpenID Provider library): authorization code with PKCE S256 only, resource
 * indicators bound to this server's /mcp, client ID metadata documents, dynamic
 * registration, rotating refresh tokens and revocation. Its records live in Warden's
 * store, so replicas share them. One provider per public base URL, made on first use.
 */
export function createAuthorizationServer(opts: AuthorizationServerOptions): AuthorizationServer {
  const now = opts.now ?? (() => new Date());
  const providers = new Map<string, Promise<Provider>>();

  // The issuer is the server's public origin itself (core/public-origin.ts): the consent page
  // is served there, where the principal's passkey works.
  const issuerFor = (base: string) => base;

  async function build(base: string): Promise<Provider> {
    const store = opts.store;
    const resource = resourceOf(base);
    const [cookieKey, keySecret] = await Promise.all([
      store.serverSecret('oauth_cookies'),
      store.serverSecret('oauth_signing_key'),
    ]);
    const dev = opts.development;
    const configured = new Set((opts.clients ?? []).map((c) => c.client_id));
    const configuration: Configuration = {
      adapter: (name: string) => new StoreAdapter(store, name, now),
      clients: opts.clients ?? [],
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'Ed25519',
      },
      enabledJWA: { idTokenSigningAlgValues: ['Ed25519'] },
      jwks: { keys: [signingKey(keySecret)] },
      cookies: { keys: [cookieKey] },
      responseTypes: ['code'],
      pkce: { required: () => true },
      scopes: ['openid', 'offline_access', ...AGENT_SCOPES],
      routes: {
        authorization: `${OAUTH_PREFIX}/authorize`,
        token: `${OAUTH_PREFIX}/token`,
        registration: `${OAUTH_PREFIX}/register`,
        revocation: `${OAUTH_PREFIX}/revoke`,
        jwks: `${OAUTH_PREFIX}/jwks`,
        end_session: `${OAUTH_PREFIX}/session/end`,
        userinfo: `${OAUTH_PREFIX}/me`,
        introspection: `${OAUTH_PREFIX}/introspect`,
        pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      },
      ttl: {
        AccessToken: opts.accessTokenTtl ?? 3600,
        AuthorizationCode: opts.codeTtl ?? 60,
        RefreshToken: 30 * 86_400,
        Grant: 365 * 86_400,
        Interaction: 15 * 60,
        Session: 12 * 3600,
      },
      rotateRefreshToken: true,
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      expiresWithSession: async () => false,
      // Every authorization asks the signed-in principal again (only the answer just given on
      // the consent page counts): the page is where they see the tools, and a browser shared
      // by two principals never reuses the other's grant.
      loadExistingGrant: async (ctx) => {
        const id = (ctx.oidc.result?.['consent'] as { grantId?: string } | undefined)?.grantId;
        return id ? ctx.oidc.provider.Grant.find(id) : undefined;
      },
      interactions: {
        url: async (_ctx, interaction) => `${CONSENT_PATH}${interaction.uid}`,
        policy: consentPolicy(),
      },
      // The "account" is the principal; a suspended or unknown one has none, which also ends refreshes.
      findAccount: async (_ctx, sub) => {
        const p = await store.getPrincipalById(sub);
        if (!p || tierOfStatus(p.status) === null) return undefined;
        return { accountId: p.id, claims: () => ({ sub: p.id }) };
      },
      features: {
        devInteractions: { enabled: false },
        userinfo: { enabled: false },
        introspection: { enabled: false },
        revocation: { enabled: true },
        registration: { enabled: true, initialAccessToken: false },
        clientIdMetadataDocument: {
          enabled: true,
          // The draft this library version implements, acknowledged (pinned in package.json).
          ack: 'draft-02',
          allowFetch: async (_ctx, clientId) => (dev ? true : resolvesPublicly(new URL(clientId).hostname)),
          cacheDuration: { min: 30, max: 3600 },
        },
        resourceIndicators: {
          enabled: true,
          // RFC 8707 is required here: an authorization request must say which resource it is for.
          defaultResource: async (ctx) => {
            if (ctx.oidc.route === 'authorization' || ctx.oidc.route === 'pushed_authorization_request')
              throw new errors.InvalidTarget(`the resource parameter is required: ${resource}`);
            return undefined as unknown as string;
          },
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx, indicator) => {
            if (indicator !== resource)
              throw new errors.InvalidTarget(`this server issues tokens only for ${resource}`);
            return {
              scope: AGENT_SCOPES.join(' '),
              audience: resource,
              accessTokenTTL: opts.accessTokenTtl ?? 3600,
              accessTokenFormat: 'opaque',
            };
          },
        },
      },
      // Run for every client the library builds; the check is in redirectPolicy below.
      extraClientMetadata: {
        properties: ['redirect_uris'],
        validator: (_ctx, key, value, metadata) => {
          if (key !== 'redirect_uris' || configured.has(String(metadata['client_id']))) return;
          const refused = plainHttpRedirect(value);
          if (refused) throw new errors.InvalidClientMetadata(refused);
        },
      },
      fetchResponseBodyLimits: { 'client_id metadata document': METADATA_DOCUMENT_LIMIT },
      ...(dev ? { fetch: devFetch(dev.metadataCa) as unknown as Configuration['fetch'] } : {}),
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
        ctx.body = `<!doctype html><meta charset="utf-8"><title>Authorization refused</title><h1>Authorization refused</h1><p><code>${esc(out.error)}</code>: ${esc(out.error_description)}</p>`;
      },
    };
    const provider = new Provider(issuerFor(base), configuration);
    provider.proxy = true;
    // Refusals a client caused (a spent code, a bad verifier) and the library's own failures,
    // with the detail the client is not told, for the operator's log.
    if (opts.onEvent) {
      const report = opts.onEvent;
      provider.on('grant.error', (_ctx, err) => report('oauth_grant_refused', err));
      provider.on('authorization.error', (_ctx, err) => report('oauth_authorization_refused', err));
      provider.on('registration_create.error', (_ctx, err) => report('oauth_registration_refused', err));
      provider.on('server_error', (_ctx, err) => report('oauth_server_error', err));
    }
    return provider;
  }

  async function provider(base: string): Promise<Provider> {
    let p = providers.get(base);
    if (!p) {
      p = build(base);
      providers.set(base, p);
      p.catch(() => providers.delete(base));
    }
    return p;
  }

  return {
    scopes: AGENT_SCOPES,
    owns: (path) => path === OAUTH_PREFIX || path.startsWith(`${OAUTH_PREFIX}/`) || WELL_KNOWN.includes(path),
    provider,
    issuer: issuerFor,
    configuredClientIds: async () => (opts.clients ?? []).map((c) => c.client_id),
    async handle(req, res, base) {
      const p = await provider(base);
      // The public base URL is configuration, not what a client says: the library builds its URLs from it.
      const u = new URL(issuerFor(base));
      req.headers['x-forwarded-proto'] = u.protocol.slice(0, -1);
      req.headers['x-forwarded-host'] = u.host;
      await new Promise<void>((resolve, reject) => {
        res.once('finish', resolve);
        res.once('close', resolve);
        Promise.resolve(p.callback()(req, res)).catch(reject);
      });
    },
  };
}
