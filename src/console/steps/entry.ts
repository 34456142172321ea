import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { serveAsset } from '../assets.ts';
import type { Ctx } from '../context.ts';
import { REFUSE } from '../refusals.ts';
import { sendRefused } from '../respond.ts';
import { redirect } from '../web.ts';

/** /console without its slash: the console's root is /console/. */
export function bareConsole(): Step<Ctx> {
  return {
    name: 'bare-console',
    run(ctx) {
      if (ctx.path !== '/console') return ctx;
      redirect(ctx.res, '/console/');
      return ANSWERED;
    },
  };
}

/** The console's own script and style files (GET only); any other name falls to "not found". */
export function assets(): Step<Ctx> {
  return {
    name: 'assets',
    run(ctx) {
      if (ctx.req.method !== 'GET' || !ctx.path.startsWith('/console/assets/')) return ctx;
      return serveAsset(ctx.res, ctx.path.slice('/console/assets/'.length)) ? ANSWERED : ctx;
    },
  };
}

/** An agent's bearer token opens nothing here, whatever else the request carries (401). */
export function noBearer(): Step<Ctx> {
  return {
    name: 'no-bearer',
    run(ctx) {
      if (ctx.req.headers.authorization === undefined) return ctx;
      sendRefused(ctx, 401, REFUSE.bearer);
      return ANSWERED;
    },
  };
}
