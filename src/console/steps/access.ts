import { ANSWERED, type Step } from '../../core/pipeline.ts';
import type { Ctx } from '../context.ts';
import { REFUSE } from '../refusals.ts';
import { sendNotFound, sendRefused } from '../respond.ts';
import type { Granted, Route, Routed } from '../route.ts';
import { currentSession } from '../session.ts';
import { redirect } from '../web.ts';

/** The route for this method and path; none is the one "not found" (404). */
export function matchRoute(routes: readonly Route[]): Step<Ctx, Routed> {
  return {
    name: 'route',
    run(ctx) {
      const method = ctx.req.method ?? 'GET';
      const route = routes.find(
        (r) =>
          r.method === method && (typeof r.path === 'string' ? r.path === ctx.path : r.path.test(ctx.path)),
      );
      if (route) return Object.assign(ctx, { route });
      sendNotFound(ctx);
      return ANSWERED;
    },
  };
}

/** The signed-in principal of this request, if any: read from the store on every request. */
export function loadSession(): Step<Routed> {
  return {
    name: 'session',
    async run(ctx) {
      ctx.session = await currentSession(ctx.deps.store, ctx.req, ctx.sessions, ctx.now);
      return ctx;
    },
  };
}

/**
 * Who may go on. An operator page is "not found" to anyone but an operator (byte for byte
 * the answer for a page that never existed); a principal's page sends a visitor without a
 * session to sign in (GET) or refuses the post as a stale form (401). What goes on says by
 * its type whether a session is certain.
 */
export function access(): Step<Routed, Granted> {
  return {
    name: 'access',
    run(ctx) {
      const route = ctx.route;
      if (route.access === 'public') return Object.assign(ctx, { access: 'public' as const, route });
      const session = ctx.session;
      if (route.access === 'operator' && !session?.principal.operator) {
        sendNotFound(ctx);
        return ANSWERED;
      }
      if (session) return Object.assign(ctx, { access: 'signed-in' as const, route, session });
      if (ctx.req.method === 'GET') redirect(ctx.res, '/console/signin');
      else sendRefused(ctx, 401, REFUSE.csrf);
      return ANSWERED;
    },
  };
}
