import type { Refusal } from '../core/refusal.ts';
import { html, type Html } from './html.ts';
import { layout, refusalBox } from './layout.ts';
import type { Authed, Ctx } from './context.ts';
import { sendHtml } from './web.ts';

/** Renders a signed-in page with the navigation (and the pending decision count). */
export async function sendPage(ctx: Authed, title: string, current: string, body: Html, status = 200) {
  const pending = await ctx.deps.store.countDecisions(ctx.session.principal.id, { status: 'pending' });
  sendHtml(ctx.res, status, layout({ title, session: ctx.session, current, body, pending }));
}

/** A public page (sign-in, errors before a session exists). */
export function sendPublic(ctx: Ctx, title: string, body: Html, status = 200, headers = {}) {
  sendHtml(ctx.res, status, layout({ title, session: ctx.session, body }), headers);
}

/**
 * The one "not found": for a path that never existed and for an operator page asked
 * for by someone who is not an operator, byte for byte the same answer.
 */
export function sendNotFound(ctx: Ctx): void {
  sendHtml(
    ctx.res,
    404,
    layout({
      title: 'Not found',
      session: null,
      body: html`<p>There is no page here.</p>
        <p><a href="/console/">Back to the console</a></p>`,
    }),
  );
}

/** A refused request before anything ran (bad origin, bad CSRF token, rate limit). */
export function sendRefused(ctx: Ctx, status: number, refusal: Refusal): void {
  sendHtml(ctx.res, status, layout({ title: 'Request refused', session: null, body: refusalBox(refusal) }));
}
