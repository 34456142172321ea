import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { csrfMatches, sameOrigin } from '../guard.ts';
import { REFUSE } from '../refusals.ts';
import { sendRefused } from '../respond.ts';
import type { Granted } from '../route.ts';
import { clientAddress, readBounded } from '../web.ts';

/*
 * The steps every state-changing request (a POST) passes before its handler: its Origin
 * is the console's own, a sign-in attempt is within the address's rate, its body is
 * within bounds, and (signed in) its CSRF token is the session's. A GET passes them all.
 */

/** A POST from another site is refused (403) before its body is read. */
export function sameSite(): Step<Granted> {
  return {
    name: 'same-origin',
    run(ctx) {
      if (ctx.req.method !== 'POST' || sameOrigin(ctx.req, ctx.base)) return ctx;
      sendRefused(ctx, 403, REFUSE.origin);
      return ANSWERED;
    },
  };
}

/** Sign-in attempts per client address (429): a link or passkey cannot be guessed at speed. */
export function signInRate(): Step<Granted> {
  return {
    name: 'sign-in-rate',
    run(ctx) {
      if (ctx.req.method !== 'POST' || !ctx.route.signIn) return ctx;
      if (ctx.signIns.take(clientAddress(ctx.req), ctx.now.getTime())) return ctx;
      sendRefused(ctx, 429, REFUSE.rate);
      return ANSWERED;
    },
  };
}

/** The form (or the passkey ceremony's JSON), read under 64 KB (413 past it). */
export function readForm(): Step<Granted> {
  return {
    name: 'form',
    async run(ctx) {
      if (ctx.req.method !== 'POST') return ctx;
      const raw = await readBounded(ctx.req);
      if (raw === null) {
        sendRefused(ctx, 413, REFUSE.body);
        return ANSWERED;
      }
      if (ctx.route.json) ctx.body = raw;
      else ctx.form = new URLSearchParams(raw);
      return ctx;
    },
  };
}

/** A signed-in POST carries its session's CSRF token, in the form or (JSON) a header (403). */
export function csrf(): Step<Granted> {
  return {
    name: 'csrf',
    run(ctx) {
      if (ctx.req.method !== 'POST' || ctx.access === 'public') return ctx;
      const header = ctx.req.headers['x-csrf-token'];
      const sent = ctx.route.json ? (typeof header === 'string' ? header : null) : ctx.form.get('_csrf');
      if (csrfMatches(sent, ctx.session.csrf)) return ctx;
      sendRefused(ctx, 403, REFUSE.csrf);
      return ANSWERED;
    },
  };
}
