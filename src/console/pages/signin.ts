import { hashSecret } from '../../admin/console-links.ts';
import { html } from '../html.ts';
import { noticeBox, refusalBox } from '../layout.ts';
import { passkeyHostNotice } from '../passkeys.ts';
import type { Ctx } from '../context.ts';
import { sendPublic } from '../respond.ts';
import { clearedCookie, startSession } from '../session.ts';
import { redirect } from '../web.ts';

const LINK_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const NOTICES: Record<string, string> = {
  signedout: 'You are signed out.',
  expired: 'Your session ended. Sign in again.',
};

/** Sign in with a passkey (the one step that needs JavaScript), or learn how to get a link. */
export function signInPage(ctx: Ctx): void {
  sendPublic(
    ctx,
    'Sign in',
    html`${noticeBox(NOTICES[ctx.query.get('done') ?? ''])}
      <section aria-labelledby="pk">
        <h2 id="pk">With a passkey</h2>
        ${passkeyHostNotice(ctx)}
        <p>
          If you registered a passkey for this club on this device, or in a password manager that goes with
          you, use it to sign in.
        </p>
        <button
          type="button"
          id="passkey-signin"
          data-options="/console/passkey/signin/options"
          data-verify="/console/passkey/signin/verify"
        >
          Sign in with a passkey
        </button>
        <p id="passkey-status" role="status" aria-live="polite"></p>
        <noscript
          ><p>
            Passkeys need JavaScript. Without it, sign in with a link from the club's operator.
          </p></noscript
        >
      </section>
      <section aria-labelledby="link">
        <h2 id="link">With a sign-in link</h2>
        <p>
          The first time, or without a passkey, ask the club's operator for a sign-in link: a web address made
          for you alone. Open it in this browser and press its button. A link works once and lapses after 15
          minutes unless the operator chose longer. Once signed in, the console offers to register a passkey,
          so that next time you need no link.
        </p>
      </section>
      <script src="/console/assets/webauthn.js"></script>
      <script src="/console/assets/passkey.js"></script>`,
  );
}

/**
 * Opening a link does not sign in yet: a GET changes nothing (link previews and
 * scanners cannot spend it). The page asks the person to continue, which POSTs.
 */
export function linkPage(ctx: Ctx): void {
  const t = ctx.query.get('t') ?? '';
  if (!LINK_SHAPE.test(t)) return linkRefused(ctx, 'link_unknown');
  sendPublic(
    ctx,
    'Sign in with your link',
    html`<p>This one-time link signs you in to the club's console. It works once.</p>
      <form method="post" action="/console/link">
        <input type="hidden" name="t" value="${t}" />
        <button type="submit">Continue and sign in</button>
      </form>`,
  );
}

const LINK_REFUSALS = {
  link_unknown: {
    reason: 'This sign-in link is not one this club made.',
    next: 'Check that you copied the whole link, or ask the operator for a new one.',
  },
  link_used: {
    reason: 'This sign-in link was used already; a link works only once.',
    next: 'Sign in with your passkey, or ask the operator for a new link.',
  },
  link_expired: {
    reason: 'This sign-in link has expired.',
    next: 'Ask the operator for a new link.',
  },
  suspended: {
    reason: 'Your membership is suspended; the console is closed to you until the club reinstates you.',
    next: 'Contact the club.',
  },
} as const;

function linkRefused(ctx: Ctx, code: keyof typeof LINK_REFUSALS): void {
  sendPublic(ctx, 'Sign-in link refused', refusalBox({ code, ...LINK_REFUSALS[code] }), 400);
}

/** Spends the link (once, in one conditional write) and starts a fresh session. */
export async function useLink(ctx: Ctx): Promise<void> {
  const t = ctx.form.get('t') ?? '';
  if (!LINK_SHAPE.test(t)) return linkRefused(ctx, 'link_unknown');
  const use = await ctx.deps.store.consumeLoginLink(hashSecret(t), ctx.now.toISOString());
  if (use.result !== 'ok') return linkRefused(ctx, `link_${use.result}`);
  const p = await ctx.deps.store.getPrincipalById(use.principalId);
  if (!p || p.status === 'suspended') return linkRefused(ctx, 'suspended');
  const cookie = await startSession(ctx.deps.store, ctx.req, p.id, ctx.sessions, ctx.now);
  const passkeys = await ctx.deps.store.listPasskeys(p.id);
  redirect(ctx.res, passkeys.length ? '/console/' : '/console/passkeys?done=welcome', {
    'Set-Cookie': cookie,
  });
}

export async function signOut(ctx: Ctx): Promise<void> {
  if (ctx.session) await ctx.deps.store.deleteSession(ctx.session.hash);
  redirect(ctx.res, '/console/signin?done=signedout', { 'Set-Cookie': clearedCookie(ctx.sessions) });
}
