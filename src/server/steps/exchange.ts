import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessTokenUse, Authentication } from '../auth.ts';
import type { GuardConfig } from '../guards.ts';

/**
 * What the steps of the /mcp edge know about a request, as they learn it. Each type is
 * what one step hands the next; the pipeline's types keep a step from running before the
 * one that tells it what it needs.
 */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The URL's path, without the query. */
  path: string;
}

/** The caller is known: anonymous, an agent, or a rejected credential. */
export interface Authenticated extends Exchange {
  auth: Authentication;
}

/** A caller that may be served: anonymous or a valid agent credential. */
export type Admitted = Exclude<Authentication, { kind: 'rejected' }>;

export interface Served extends Exchange {
  auth: Admitted;
}

/** The body, read under the caller's bound. */
export interface WithBody extends Served {
  raw: Buffer;
}

/** The body, parsed after the screen passed it. */
export interface Parsed extends WithBody {
  message: unknown;
}

/**
 * Where the server is, known once it listens: its public base URL and what its Host and
 * Origin guards accept. Steps read it per request, so they can be built before the listen.
 */
export interface Site {
  base: string;
  guard: GuardConfig;
}

export const MCP_PATH = '/mcp';
/**
 * MCP for hosts that sign in: the same endpoint as /mcp, but a request without a credential
 * is answered 401 with the sign-in challenge, which is when most MCP clients start OAuth.
 * Under /mcp, so the protected resource (/mcp) covers it (RFC 9728 path prefix).
 */
export const SIGN_IN_PATH = '/mcp/sign-in';
export const PRM_PATHS: readonly string[] = [
  '/.well-known/oauth-protected-resource',
  `/.well-known/oauth-protected-resource${MCP_PATH}`,
];

export const resourceMetadataUrl = (site: Site): string => `${site.base}${PRM_PATHS[1]}`;

/**
 * A new exchange, with every field a later step may set already present, so each request
 * object has one shape from start to end.
 */
export function exchange(req: IncomingMessage, res: ServerResponse): Exchange {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const x = {
    req,
    res,
    path: q < 0 ? url : url.slice(0, q),
    auth: undefined,
    raw: undefined,
    message: undefined,
  };
  return x;
}

/** A handler mounted under a path prefix; it is told the server's public base URL. */
export type MountedHandler = (req: IncomingMessage, res: ServerResponse, base: string) => Promise<void>;

/** What the edge needs from an authorization server: its paths, and a lookup of the access tokens it issued. */
export interface OAuthEdge {
  owns(path: string): boolean;
  handle: MountedHandler;
  resolve(token: string, base: string): Promise<AccessTokenUse>;
  /** The authorization server's issuer URL for this server's base URL. */
  issuer(base: string): string;
}
