import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveAsset } from './assets.ts';
import type { Authed, ConsoleDeps, Ctx } from './context.ts';
import { csrfMatches, sameOrigin } from './guard.ts';
import { RateLimiter } from './rate-limit.ts';
import { sendNotFound, sendRefused } from './respond.ts';
import { currentSession, type SessionConfig } from './session.ts';
import { clientAddress, readBounded, redirect } from './web.ts';
import { ROUTES, type Route } from './routes.ts';

/** The console's request handler, mounted by the server under /console/. */
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse, base: string) => Promise<void>;

const REFUSE = {
  origin: {
    code: 'cross_site_request',
    reason: "This request did not come from the console's own pages, so nothing was done.",
    next: 'Open the console and try again from there.',
  },
  csrf: {
    code: 'stale_form',
    reason: 'This form is from another session or has expired, so nothing was done.',
    next: 'Reload the page and submit it again.',
  },
  bearer: {
    code: 'agent_token_at_console',
    reason:
      'The console does not accept agent tokens; it is for people, who sign in with a link or a passkey.',
    next: 'Agents use the MCP endpoint at /mcp.',
  },
  body: {
    code: 'form_too_large',
    reason: 'The form is larger than the console accepts (64 KB).',
    next: 'Shorten what you typed.',
  },
  rate: {
    code: 'too_many_attempts',
    reason: 'Too many sign-in attempts from your address.',
    next: 'Wait a minute and try again.',
  },
} as const;

/**
 * Builds the console. Every route states who may use it; state-changing requests
 * are refused before any handler runs unless their Origin is ours and (signed in)
 * their CSRF token matches the session's.
 */
export function createConsole(deps: ConsoleDeps): ConsoleHandler {
  const signIns = new RateLimiter(deps.signInPerMinute ?? 20, 60_000);
  const full = { ...deps, now: deps.now };
  return async (req, res, base) => {
    const u = new URL(req.url ?? '/', 'http://console.invalid');
    const path = u.pathname;
    if (path === '/console') return redirect(res, '/console/');
    if (path.startsWith('/console/assets/')) {
      if (req.method === 'GET' && serveAsset(res, path.slice('/console/assets/'.length))) return;
    }
    const sessions: SessionConfig = {
      idleMs: deps.idleMs ?? 30 * 60_000,
      maxMs: deps.maxMs ?? 12 * 3_600_000,
      secure: base.startsWith('https:'),
    };
    const now = deps.now();
    const ctx: Ctx = {
      req,
      res,
      deps: full,
      base,
      now,
      path,
      query: u.searchParams,
      form: new URLSearchParams(),
      body: '',
      session: null,
      sessions,
      signIns,
    };
    // An agent's bearer token opens nothing here, whatever else the request carries.
    if (req.headers.authorization !== undefined) return sendRefused(ctx, 401, REFUSE.bearer);
    const route = match(req.method ?? 'GET', path);
    ctx.session = await currentSession(deps.store, req, sessions, now);
    if (!route) return sendNotFound(ctx);
    if (route.access === 'operator' && !ctx.session?.principal.operator) return sendNotFound(ctx);
    if (route.access !== 'public' && !ctx.session) {
      if (req.method === 'GET') return redirect(res, '/console/signin');
      return sendRefused(ctx, 401, REFUSE.csrf);
    }
    if (req.method === 'POST') {
      if (!sameOrigin(req, base)) return sendRefused(ctx, 403, REFUSE.origin);
      if (route.signIn && !signIns.take(clientAddress(req), now.getTime()))
        return sendRefused(ctx, 429, REFUSE.rate);
      const raw = await readBounded(req);
      if (raw === null) return sendRefused(ctx, 413, REFUSE.body);
      if (route.json) ctx.body = raw;
      else ctx.form = new URLSearchParams(raw);
      if (route.access !== 'public') {
        const sent = route.json
          ? ((req.headers['x-csrf-token'] as string | undefined) ?? null)
          : ctx.form.get('_csrf');
        if (!csrfMatches(sent, ctx.session!.csrf)) return sendRefused(ctx, 403, REFUSE.csrf);
      }
    }
    await route.run(ctx as Authed);
  };
}

function match(method: string, path: string): Route | undefined {
  return ROUTES.find(
    (r) => r.method === method && (typeof r.path === 'string' ? r.path === path : r.path.test(path)),
  );
}
