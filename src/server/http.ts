import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Registry } from '../core/registry.ts';
import type { Store } from '../store/contract.ts';
import type { Caller, ToolContext } from '../tools/index.ts';
import { boundSdkErrors } from './bounded-errors.ts';
import { mcpEdge } from './edge.ts';
import { createFastPath } from './fast-path.ts';
import { DEFAULT_PORT, isLoopbackHost, resolvePublicOrigin } from '../core/public-origin.ts';
import { logRequestError, type Logger } from './log.ts';
import { skillSources } from '../skill/index.ts';
import { buildMcpServer } from './mcp.ts';
import {
  DEFAULT_RATE_LIMITS,
  RateLimiter,
  StoreRateLimiter,
  type RateGate,
  type RateLimits,
} from './rate-limit.ts';
import { internalError } from './refusals.ts';
import { exchange, MCP_PATH, type MountedHandler, type OAuthEdge, type Site } from './steps/exchange.ts';

export interface HttpOptions {
  store: Store;
  registry: Registry<ToolContext>;
  logger: Logger;
  version: string;
  host?: string;
  port?: number;
  /**
   * The origin people and clients open (core/public-origin.ts): every link, redirect, OAuth
   * URL and passkey relying party is built from it. Default `http://localhost:PORT` on a
   * loopback bind; required for any other bind.
   */
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

export interface RunningServer {
  url: string;
  mcpUrl: string;
  http: HttpServer;
  close(): Promise<void>;
}

/** Starts Warden's HTTP server: MCP at /mcp, plus /tiers, /diagnose and protected-resource metadata beside it. */
export async function startHttpServer(opts: HttpOptions): Promise<RunningServer> {
  // A skill source out of form (a marker, a rule bound to no refusal) stops the start, not a reader.
  skillSources();
  const host = opts.host ?? '127.0.0.1';
  const originFor = (port: number) =>
    resolvePublicOrigin({
      host,
      port,
      ...(opts.publicUrl !== undefined ? { publicUrl: opts.publicUrl } : {}),
    });
  // A public URL that cannot be one, or a bind that needs one, stops the start before it listens.
  originFor(opts.port ?? DEFAULT_PORT);
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
      return buildMcpServer(deps, async () => caller, caller);
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
  // Every error the SDK answers is bounded on its way out (bounded-errors.ts).
  const bounded = {
    fetch: async (...args: Parameters<typeof handler.fetch>) => boundSdkErrors(await handler.fetch(...args)),
  };
  const mcp = toNodeHandler(bounded, {
    maxRequestBodySize: maxBody,
    onerror: (err) => logRequestError(opts.logger, 'mcp_adapter_error', err),
  });

  const site: Site = { base: '', guard: { loopbackOnly: true, allowedOrigins: [], allowedHosts: [] } };
  const edge = mcpEdge({
    site,
    store: opts.store,
    registry: opts.registry,
    version: opts.version,
    now,
    limiter,
    maxBody,
    anonymousMaxBody,
    requireSignIn: opts.requireSignIn === true,
    oauth: opts.oauth,
    console: opts.console,
    fast,
    sdk: mcp,
  });

  // Node checks these timeouts only every connectionsCheckingInterval (30 s by default),
  // which let a slow-header client hold a socket well past the limit; check every second.
  const server = createServer(
    { headersTimeout, requestTimeout, connectionsCheckingInterval: 1_000 },
    (req, res) => {
      edge.run(exchange(req, res)).catch((err: unknown) => {
        logRequestError(opts.logger, 'http_error', err);
        if (!res.headersSent) internalError(res);
        else res.end();
      });
    },
  );

  // Slow clients cannot hold sockets: bounded header, request and idle times.
  server.keepAliveTimeout = 5_000;
  server.timeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? DEFAULT_PORT, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const base = originFor(address.port);
  const publicHost = new URL(base).hostname.toLowerCase();
  site.base = base;
  site.guard = {
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
