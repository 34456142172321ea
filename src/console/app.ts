import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from '../core/pipeline.ts';
import type { ConsoleDeps, Ctx } from './context.ts';
import { RateLimiter } from './rate-limit.ts';
import { ROUTES } from './routes.ts';
import type { SessionConfig } from './session.ts';
import { access, loadSession, matchRoute } from './steps/access.ts';
import { assets, bareConsole, noBearer } from './steps/entry.ts';
import { runHandler } from './steps/handler.ts';
import { csrf, readForm, sameSite, signInRate } from './steps/post.ts';

/** The console's request handler, mounted by the server under /console/. */
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse, base: string) => Promise<void>;

/**
 * Builds the console: its edge as a declared list of steps, in the order that is its
 * security model. Every route states who may use it; a state-changing request is refused
 * before any handler runs unless its Origin is ours and (signed in) its CSRF token
 * matches the session's.
 */
export function createConsole(deps: ConsoleDeps): ConsoleHandler {
  const signIns = new RateLimiter(deps.signInPerMinute ?? 20, 60_000);
  const edge = pipeline<Ctx>()
    .then(bareConsole())
    .then(assets())
    .then(noBearer())
    .then(matchRoute(ROUTES))
    .then(loadSession())
    .then(access())
    .then(sameSite())
    .then(signInRate())
    .then(readForm())
    .then(csrf())
    .end(runHandler());
  return (req, res, base) => {
    const sessions: SessionConfig = {
      idleMs: deps.idleMs ?? 30 * 60_000,
      maxMs: deps.maxMs ?? 12 * 3_600_000,
      secure: base.startsWith('https:'),
    };
    const u = new URL(req.url ?? '/', 'http://console.invalid');
    return edge.run({
      req,
      res,
      deps,
      base,
      now: deps.now(),
      path: u.pathname,
      query: u.searchParams,
      form: new URLSearchParams(),
      body: '',
      session: null,
      sessions,
      signIns,
    });
  };
}
