import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import type { Registry } from '../core/registry.ts';
import type { Store } from '../store/contract.ts';
import type { Caller, ToolContext } from '../tools/index.ts';
import { authenticate, headerShape, type AccessTokenUse, type Authentication } from './auth.ts';
import { AGENT_SCOPES } from '../core/scopes.ts';
import { calledToolName, challengeFor, sendChallenge } from './challenge.ts';
import { diagnosis } from './diagnose.ts';
import { hostAllowed, isLoopbackHost, originAllowed, type GuardConfig } from './guards.ts';
import { classifyFast, createFastPath } from './fast-path.ts';
import { payloadTooLarge, readBody, replay, sendJson } from './http-io.ts';
import { logRequestError, type Logger } from './log.ts';
import { screenPost } from './screen.ts';
import { buildMcpServer } from './mcp.ts';
import {
  DEFAULT_RATE_LIMITS,
  RateLimiter,
  StoreRateLimiter,
  tooManyRequests,
  type RateGate,
  type RateLimits,
} from './rate-limit.ts';
import { protectedResourceMetadata, tierCatalog } from './public-docs.ts';

export interface HttpOptions {
  store: Store;
  registry: Registry<ToolContext>;
  logger: Logger;
  version: string;
  host?: string;
  port?: number;
  /** The URL clients use, when it differs from the bind address (behind a load balancer). */
  publicUrl?: string;
  allowedOrigins?: string[];
  /** Largest body from a caller with a valid credential (default 1 MiB). */
  maxBodyBytes?: number;
  /** Largest body from a caller without one (default 64 KiB): nothing anonymous needs more. */
  anonymousMaxBodyBytes?: number;
  /** How long a client may take to send its headers, and its whole request (defaults 10 s, 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  now?: () => Date;
  /** Serve well-formed tools/list and tools/call without the SDK's per-request instance (default on). */
  fastPath?: boolean;
  /** Requests per caller (token, or address without one); DEFAULT_RATE_LIMITS unless given. */
  rateLimits?: RateLimits;
  /** Keep the rate-limit buckets in the store, shared by every replica (one write per request). */
  sharedRateLimits?: boolean;
  /**
   * No anonymous tier at /mcp: a request without a credential is answered 401 with the
   * sign-in challenge, so MCP clients that authorize only when told (on a 401 at
   * connect) start the OAuth flow at once. Needs `oauth`.
   */
  requireSignIn?: boolean;
  /** The principals' web console, mounted under /console/ (wired by the CLI; the server imports none of it). */
  console?: MountedHandler;
  /** Warden as the authorization server of its own /mcp (wired by the CLI, like the console). */
  oauth?: OAuthEdge;
}

/** What the edge needs from an authorization server: its paths, and a lookup of the access tokens it issued. */
export interface OAuthEdge {
  owns(path: string): boolean;
  handle: MountedHandler;
  resolve(token: string, base: string): Promise<AccessTokenUse>;
  /** The authorization server's issuer URL for this server's base URL. */
  issuer(base: string): string;
}

/** A handler mounted under a path prefix; it is told the server's public base URL. */
export type MountedHandler = (req: IncomingMessage, res: ServerResponse, base: string) => Promise<void>;

export interface RunningServer {
  url: string;
  mcpUrl: string;
  http: HttpServer;
  close(): Promise<void>;
}

const MCP_PATH = '/mcp';
const PRM_PATHS = [
  '/.well-known/oauth-protected-resource',
  `/.well-known/oauth-protected-resource${MCP_PATH}`,
];

/** Starts Warden's HTTP server: MCP at /mcp, plus /tiers, /diagnose and protected-resource metadata beside it. */
export async function startHttpServer(opts: HttpOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const now = opts.now ?? (() => new Date());
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const anonymousMaxBody = Math.min(opts.anonymousMaxBodyBytes ?? 64 * 1024, maxBody);
  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(opts.requestTimeoutMs ?? 30_000, headersTimeout);
  const deps = {
    store: opts.store,
    registry: opts.registry,
    logger: opts.logger,
    version: opts.version,
    now,
  };

  const handler = createMcpHandler(
    ({ authInfo }) => {
      const caller = (authInfo?.extra as { caller?: Caller } | undefined)?.caller;
      if (!caller) throw new Error('MCP request reached the handler without a resolved caller');
      return buildMcpServer(deps, async () => caller);
    },
    {
      responseMode: 'auto',
      maxRequestBodySize: maxBody,
      onerror: (err) => logRequestError(opts.logger, 'mcp_error', err),
    },
  );
  const fast = opts.fastPath === false ? null : createFastPath(deps);
  const limits = opts.rateLimits ?? DEFAULT_RATE_LIMITS;
  const limiter: RateGate = opts.sharedRateLimits
    ? new StoreRateLimiter(limits, opts.store, (err) =>
        logRequestError(opts.logger, 'rate_bucket_sweep_failed', err),
      )
    : new RateLimiter(limits);
  const mcp = toNodeHandler(handler, {
    maxRequestBodySize: maxBody,
    onerror: (err) => logRequestError(opts.logger, 'mcp_adapter_error', err),
  });

  let base = '';
  let guard: GuardConfig = { loopbackOnly: true, allowedOrigins: [], allowedHosts: [] };
  const resourceMetadataUrl = () => `${base}${PRM_PATHS[1]}`;

  // Node checks these timeouts only every connectionsCheckingInterval (30 s by default),
  // which let a slow-header client hold a socket well past the limit; check every second.
  const server = createServer(
    { headersTimeout, requestTimeout, connectionsCheckingInterval: 1_000 },
    (req, res) => {
      route(req, res).catch((err: unknown) => {
        logRequestError(opts.logger, 'http_error', err);
        if (!res.headersSent) sendJson(res, 500, { error: 'internal_error' });
        else res.end();
      });
    },
  );

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!hostAllowed(req.headers.host, guard)) {
      return sendJson(res, 403, {
        error: 'forbidden_host',
        error_description: 'This Host is not served here.',
      });
    }
    if (!originAllowed(req.headers.origin, guard)) {
      return sendJson(res, 403, {
        error: 'forbidden_origin',
        error_description: 'Requests from this Origin are refused.',
      });
    }
    if (PRM_PATHS.includes(path)) {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      return sendJson(
        res,
        200,
        protectedResourceMetadata(`${base}${MCP_PATH}`, opts.oauth ? [opts.oauth.issuer(base)] : []),
      );
    }
    if (path === '/tiers') {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      return sendJson(res, 200, tierCatalog(opts.registry, opts.version));
    }
    if (path === '/healthz') return sendJson(res, 200, { ok: true });
    if (opts.oauth?.owns(path)) {
      // Anyone may register a client or ask for a token: those posts share the bucket of
      // callers without a credential, per address, so registrations cannot flood the store.
      if (req.method === 'POST') {
        const decision = await limiter.take('anonymous', req.socket.remoteAddress ?? 'unknown');
        if (!decision.ok)
          return sendJson(res, 429, tooManyRequests('anonymous', decision), {
            'Retry-After': String(decision.retryAfterSeconds),
          });
      }
      return opts.oauth.handle(req, res, base);
    }
    if (opts.console && (path === '/console' || path.startsWith('/console/'))) {
      return opts.console(req, res, base);
    }
    if (path === '/diagnose' || path === MCP_PATH) {
      const header = req.headers.authorization;
      const oauth = opts.oauth;
      const auth = await authenticate(
        opts.store,
        header,
        now(),
        oauth ? (token) => oauth.resolve(token, base) : undefined,
      );
      // A token's own bucket; without a valid one, the client address's (bad tokens included).
      const kind = auth.kind === 'agent' ? 'token' : 'anonymous';
      const decision = await limiter.take(
        kind,
        auth.kind === 'agent' ? auth.credential.token.id : (req.socket.remoteAddress ?? 'unknown'),
      );
      if (!decision.ok) {
        return sendJson(res, 429, tooManyRequests(kind, decision), {
          'Retry-After': String(decision.retryAfterSeconds),
        });
      }
      if (auth.kind === 'rejected') return unauthorized(res, auth, resourceMetadataUrl());
      if (path === '/diagnose') {
        if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
        return sendJson(res, 200, diagnosis(auth, headerShape(header), opts.registry), {
          'Cache-Control': 'no-store',
        });
      }
      if (auth.kind === 'anonymous' && opts.requireSignIn && opts.oauth)
        return sendChallenge(
          res,
          { kind: 'sign_in', scopes: AGENT_SCOPES, required: true },
          resourceMetadataUrl(),
        );
      const authInfo = authInfoFor(auth);
      if (req.method !== 'POST') return mcp(Object.assign(req, { auth: authInfo }), res);
      const limit = auth.kind === 'anonymous' ? anonymousMaxBody : maxBody;
      const raw = await readBody(req, limit);
      // Closing the connection stops reading the rest of an oversized body.
      if (raw === null) return sendJson(res, 413, payloadTooLarge(limit), { Connection: 'close' });
      const screened = screenPost(req.headers, raw);
      if (!screened.ok) return sendJson(res, screened.status, screened.body);
      const message = screened.message;
      const called = opts.oauth ? calledToolName(message) : null;
      const challenge = called === null ? null : challengeFor(opts.registry, auth.caller, called);
      if (challenge) return sendChallenge(res, challenge, resourceMetadataUrl());
      const fastRequest = fast ? classifyFast(req.headers, message) : null;
      if (fast && fastRequest) {
        const text = await fast(fastRequest, auth.caller);
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(text)),
        });
        return void res.end(text);
      }
      return mcp(replay(req, raw, authInfo), res);
    }
    return sendJson(res, 404, {
      error: 'not_found',
      error_description: `Nothing at ${path}. MCP is served at ${MCP_PATH}.`,
    });
  }

  // Slow clients cannot hold sockets: bounded header, request and idle times.
  server.keepAliveTimeout = 5_000;
  server.timeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8787, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  base = (opts.publicUrl ?? `http://${hostForUrl}:${address.port}`).replace(/\/+$/, '');
  const publicHost = new URL(base).hostname.toLowerCase();
  guard = {
    loopbackOnly: isLoopbackHost(host),
    allowedOrigins: opts.allowedOrigins ?? [],
    allowedHosts: isLoopbackHost(publicHost) ? [] : [publicHost],
  };
  opts.logger.info('listening', { url: `${base}${MCP_PATH}`, store: opts.store.kind });

  return {
    url: base,
    mcpUrl: `${base}${MCP_PATH}`,
    http: server,
    async close() {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function authInfoFor(auth: Exclude<Authentication, { kind: 'rejected' }>): AuthInfo {
  const caller = auth.caller;
  return {
    token: auth.kind === 'agent' ? auth.credential.token.id : 'anonymous',
    clientId: caller.kind === 'anonymous' ? 'anonymous' : caller.principal.handle,
    scopes: [...caller.permissions.effective],
    extra: { caller },
  };
}

/** A present but bad credential: loud, with the challenge and the metadata pointer (RFC 6750, RFC 9728). */
function unauthorized(
  res: ServerResponse,
  auth: Extract<Authentication, { kind: 'rejected' }>,
  metadataUrl: string,
): void {
  // Header values must be visible ASCII: quote-safe and without the message's typography.
  const description = auth.message.replace(/…/g, '...').replace(/[^\x20-\x7e]|["\\]/g, "'");
  const challenge = `Bearer realm="warden", error="invalid_token", error_description="${description}", resource_metadata="${metadataUrl}"`;
  sendJson(
    res,
    401,
    {
      error: 'invalid_token',
      error_description: auth.message,
      reason: auth.code,
      ...(auth.emptyStore ? { empty_store: true } : {}),
    },
    { 'WWW-Authenticate': challenge },
  );
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  sendJson(res, 405, { error: 'method_not_allowed' }, { Allow: allow });
}
