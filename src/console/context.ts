import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminDeps } from '../admin/as-principal.ts';
import type { AuthorizationServer } from '../oauth/provider.ts';
import type { SignedIn, SessionConfig } from './session.ts';
import type { RateLimiter } from './rate-limit.ts';

/** What the console needs from the server it is mounted in. */
export interface ConsoleDeps extends AdminDeps {
  now: () => Date;
  /** Defaults: idle 30 minutes, absolute 12 hours. */
  idleMs?: number;
  maxMs?: number;
  /** Sign-in attempts per client address per minute (default 20). */
  signInPerMinute?: number;
  /** Warden's authorization server, when it is one: its consent page lives here. */
  oauth?: AuthorizationServer;
}

/** One request as a page handler sees it. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  deps: ConsoleDeps & { now: () => Date };
  /** The server's public base URL (no trailing slash). */
  base: string;
  now: Date;
  path: string;
  query: URLSearchParams;
  /** The form body of a POST (already bounded and parsed). */
  form: URLSearchParams;
  /** The raw body of a JSON POST (the passkey ceremony). */
  body: string;
  session: SignedIn | null;
  sessions: SessionConfig;
  signIns: RateLimiter;
}

/** A page handler for a signed-in principal. */
export type Authed = Ctx & { session: SignedIn };
