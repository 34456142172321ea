import { forPeople } from '@warden-mcp/gate/text';
import { AdminRefusal } from '../../admin/errors.ts';
import type { Refusal } from '../../core/refusal.ts';
import {
  approveConsent,
  denyConsent,
  offerFor,
  pendingConsent,
  type PendingConsent,
} from '../../oauth/consent.ts';
import type { AuthorizationServer } from '../../oauth/provider.ts';
import { html, url, type Html } from '../html.ts';
import { isScope, PRINCIPAL_ONLY_SCOPE, type Scope } from '../../core/scopes.ts';
import { TIER_CEILING, tierOfStatus, type PrincipalStatus } from '../../core/tiers.ts';
import { SCOPE_WORDS, scopeWords } from '../glossary.ts';
import { csrfField, layout, refusalBox, scopeCheck } from '../layout.ts';
import { passkeyHostNotice } from '../passkeys.ts';
import type { Authed, Ctx } from '../context.ts';
import { SECURITY_HEADERS, redirect, sendHtml } from '../web.ts';
import { preview } from './tokens.ts';

const GONE = {
  code: 'authorization_expired',
  reason: 'This authorization request has expired, was answered already, or was started in another browser.',
  next: 'Go back to the application and connect again.',
} as const;

const REGISTRATION: Record<PendingConsent['client']['registration'], string> = {
  metadata_document: 'identified by its metadata document at the address above',
  dynamic: 'registered itself with this server',
  configured: "registered by the club's operator",
};

/**
 * The consent page may send the browser on to the client's redirect URI (another origin,
 * or an app's own scheme), so its form-action allows that one destination besides ours.
 */
function headersFor(redirectUri: string): Record<string, string> {
  const u = URL.canParse(redirectUri) ? new URL(redirectUri) : null;
  const extra = !u ? '' : u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
  const csp = SECURITY_HEADERS['Content-Security-Policy']!.replace(
    "form-action 'self'",
    `form-action 'self'${extra ? ` ${extra}` : ''}`,
  );
  return { 'Content-Security-Policy': csp };
}

function as(ctx: Ctx): AuthorizationServer | null {
  return ctx.deps.oauth ?? null;
}

function send(ctx: Ctx, title: string, body: Html, status: number, redirectUri = ''): void {
  sendHtml(ctx.res, status, layout({ title, session: ctx.session, body }), headersFor(redirectUri));
}

/**
 * The client's own words (name, addresses) as a person should read them: every bidi,
 * invisible and control character made visible, so a right-to-left override cannot
 * make a name read as another on the page where scopes are granted. Escaped as HTML
 * after that, like every slot.
 */
function shown(text: string): string {
  return forPeople(text, CLIENT_TEXT_MAX);
}

/** Client names and addresses are cut here (with "…"): enough to recognise, never a wall of text. */
const CLIENT_TEXT_MAX = 200;

function clientBox(p: PendingConsent): Html {
  const c = p.client;
  return html`<section aria-labelledby="client" class="client">
    <h2 id="client">${shown(c.name)}</h2>
    <p class="unverified">
      <strong>Unverified:</strong> the name, address and logo below are what the application says of itself;
      the club has not checked them.
    </p>
    <dl>
      <dt>Client id</dt>
      <dd><code>${shown(c.id)}</code> (${REGISTRATION[c.registration]})</dd>
      ${
        c.uri
          ? html`<dt>Web site</dt>
              <dd><code>${shown(c.uri)}</code></dd>`
          : ''
      }
      ${
        c.logo
          ? html`<dt>Logo</dt>
              <dd><code>${shown(c.logo)}</code> (not loaded: the console fetches nothing from elsewhere)</dd>`
          : ''
      }
      <dt>Will act on</dt>
      <dd><code>${shown(p.resource)}</code></dd>
    </dl>
  </section>`;
}

/** GET: sign in first if needed (passkey, then back here), then the client and the scopes to pick. */
export async function consentPage(ctx: Ctx): Promise<void> {
  const server = as(ctx);
  const pending = server ? await pendingConsent(server, ctx.base, ctx.req, ctx.res) : null;
  if (!pending || pending.uid !== ctx.path.slice('/console/oauth/'.length))
    return send(ctx, 'Authorization expired', refusalBox(GONE), 404);
  const redirectUri = await redirectUriOf(server!, ctx);
  if (!ctx.session) {
    return send(
      ctx,
      `Connect ${shown(pending.client.name)}?`,
      html`${clientBox(pending)}
        <section aria-labelledby="who">
          <h2 id="who">Sign in to decide</h2>
          <p>
            An application asks to act for you on this club. Sign in first; nothing is granted until you
            choose.
          </p>
          ${passkeyHostNotice(ctx)}
          <h3>With a passkey</h3>
          <p>
            If you registered a passkey for this club on this device, or in a password manager that goes with
            you, use it:
          </p>
          <button
            type="button"
            id="passkey-signin"
            data-options="/console/passkey/signin/options"
            data-verify="/console/passkey/signin/verify"
            data-next="${ctx.path}"
          >
            Sign in with a passkey
          </button>
          <p id="passkey-status" role="status" aria-live="polite"></p>
          <noscript><p>Passkeys need JavaScript. Without it, use a sign-in link as below.</p></noscript>
          <h3>No passkey yet?</h3>
          <p>
            Then your browser has none to offer here. Ask the club's operator for a
            <strong>sign-in link</strong>: a web address they make for you alone, which signs you in to the
            club's console once and lapses after 15 minutes unless they chose longer. Open it in this browser,
            press its button to sign in, then come back to this page and reload it to decide. The console
            offers to register a passkey once you are signed in, so that next time you need no link.
          </p>
          <p class="hint">
            If this page has expired by then, start again from the application: it sends you back here.
          </p>
        </section>
        <script src="/console/assets/webauthn.js"></script>
        <script src="/console/assets/passkey.js"></script>`,
      200,
      redirectUri,
    );
  }
  await renderConsent(ctx as Authed, pending, redirectUri, null);
}

/** How long a connection may last: the person chooses, the shortest first; "until I disconnect it" last. */
const LASTS: readonly { value: string; words: string }[] = [
  { value: '1d', words: '1 day' },
  { value: '7d', words: '7 days' },
  { value: '30d', words: '30 days' },
  { value: '90d', words: '90 days' },
  { value: 'never', words: 'until I disconnect it' },
];
const LASTS_DEFAULT = '30d';

/** Why a permission the application asked for is not offered, said to the member. */
function whyNotOffered(me: { status: string }, scope: string): string {
  const w = scopeWords(scope);
  if (scope === PRINCIPAL_ONLY_SCOPE)
    return `“${w?.name ?? scope}”: yours alone, never given to an application or an agent`;
  if (!isScope(scope)) return `“${scope}”: not a permission this club has`;
  const tier = tierOfStatus(me.status as PrincipalStatus);
  if (!tier || !TIER_CEILING[tier].includes(scope))
    return `“${w?.name ?? scope}”: above what your standing in the club allows for now`;
  return `“${w?.name ?? scope}”: your mandate does not allow it to any agent (you can change that in your mandate)`;
}

/** Permissions that only let an agent look, apart from those that let it act in the member's name. */
function split(scopes: readonly Scope[]): { see: Scope[]; act: Scope[] } {
  return {
    see: scopes.filter((s) => SCOPE_WORDS[s].do === null),
    act: scopes.filter((s) => SCOPE_WORDS[s].do !== null),
  };
}

async function renderConsent(
  ctx: Authed,
  pending: PendingConsent,
  redirectUri: string,
  picked: string[] | null,
  refusal: Refusal | null = null,
  lasts = LASTS_DEFAULT,
): Promise<void> {
  const me = ctx.session.principal;
  // offline_access asks for a refresh token, not a power: said below, not offered as a scope.
  const { offered, notOffered, staysConnected } = await offerFor(ctx.deps.store, me, pending);
  // Least access first: what the application asked for is offered, nothing ticked until chosen.
  const checked = picked ?? [];
  const { see, act } = split(offered);
  const refused = notOffered.length
    ? html`<div class="warning" role="note">
        <p>
          ${offered.length ? 'It also asked for what cannot be granted:' : 'It asked only for what cannot be granted:'}
        </p>
        <ul>
          ${notOffered.map((s) => html`<li>${shown(whyNotOffered(me, s))}</li>`)}
        </ul>
      </div>`
    : '';
  if (offered.length === 0) {
    const body = html`${refusal ? refusalBox(refusal) : ''}${clientBox(pending)}
      <section aria-labelledby="scopes">
        <h2 id="scopes">Nothing can be granted</h2>
        <p>Signed in as <strong>@${me.handle}</strong>.</p>
        ${refused}
        <p>
          So there is nothing to allow: this application cannot connect with what it asked for. Tell it no,
          and it is told you declined; if it should have asked for other permissions, connect it again from
          the application once it does.
        </p>
        <form method="post" action="${url(`/console/oauth/${pending.uid}`)}" id="consent-form">
          ${csrfField(ctx.session)}
          <div class="actions">
            <button type="submit" name="intent" value="deny">Tell it no</button>
          </div>
        </form>
      </section>`;
    sendHtml(
      ctx.res,
      200,
      layout({ title: `Connect ${shown(pending.client.name)}?`, session: ctx.session, body }),
      headersFor(redirectUri),
    );
    return;
  }
  const body = html`${refusal ? refusalBox(refusal) : ''}${clientBox(pending)}
    <section aria-labelledby="scopes">
      <h2 id="scopes">What it may see and do</h2>
      <p>
        Signed in as <strong>@${me.handle}</strong>. Tick only what this application needs: nothing is ticked
        for you. It acts within your mandate (your standing instructions to all your agents), now and after
        any change you make to it, and you can disconnect it on the Tokens page at any time.
      </p>
      ${refused}
      <form
        method="post"
        action="${url(`/console/oauth/${pending.uid}`)}"
        id="consent-form"
        data-preview="/console/tokens/preview"
      >
        ${csrfField(ctx.session)}
        ${
          see.length
            ? html`<fieldset>
                <legend>Let it see</legend>
                ${see.map((s) => scopeCheck(s, checked.includes(s)))}
              </fieldset>`
            : ''
        }
        ${
          act.length
            ? html`<fieldset>
                <legend>Let it act in your name</legend>
                <p class="hint">
                  Other members see what it does with these as done by you. Those marked “acts in your name”
                  are the ones to give with care.
                </p>
                ${act.map((s) => scopeCheck(s, checked.includes(s)))}
              </fieldset>`
            : ''
        }
        <div class="field">
          <label for="lasts">Stays connected for</label>
          <select id="lasts" name="lasts">
            ${LASTS.map(
              (l) =>
                html`<option value="${l.value}" ${l.value === lasts ? html` selected` : ''}>
                  ${l.words}
                </option>`,
            )}
          </select>
          <p class="hint">
            ${
              staysConnected
                ? 'Within that time it renews its access by itself every hour; after it, it must ask you again.'
                : 'Its access lasts an hour at a time, and ends at the latest then.'
            }
          </p>
        </div>
        ${await preview(ctx, checked)}
        <div class="actions">
          <button type="submit" name="intent" value="approve">Allow what is ticked</button>
          <button type="submit" name="intent" value="deny" class="secondary">Deny</button>
        </div>
      </form>
      <script src="/console/assets/token-preview.js"></script>
    </section>`;
  sendHtml(
    ctx.res,
    200,
    layout({ title: `Connect ${shown(pending.client.name)}?`, session: ctx.session, body }),
    headersFor(redirectUri),
  );
}

/** POST: allow (a grant and an agent token for exactly the offered scopes picked) or deny (access_denied). */
export async function consentPost(ctx: Authed): Promise<void> {
  const server = as(ctx);
  const pending = server ? await pendingConsent(server, ctx.base, ctx.req, ctx.res) : null;
  if (!pending || pending.uid !== ctx.path.slice('/console/oauth/'.length))
    return send(ctx, 'Authorization expired', refusalBox(GONE), 404);
  const redirectUri = await redirectUriOf(server!, ctx);
  if (ctx.form.get('intent') === 'deny') {
    const to = await denyConsent(server!, ctx.base, ctx.req, ctx.res);
    return redirect(ctx.res, to, headersFor(redirectUri));
  }
  const me = ctx.session.principal;
  const lasts = LASTS.find((l) => l.value === ctx.form.get('lasts'))?.value ?? LASTS_DEFAULT;
  const chosen = ctx.form.getAll('scope');
  let to;
  try {
    to = await approveConsent(server!, ctx.deps, ctx.base, { req: ctx.req, res: ctx.res }, pending, {
      principal: me,
      offer: await offerFor(ctx.deps.store, me, pending),
      chosen,
      now: ctx.now,
      expires: lasts,
    });
  } catch (err) {
    if (err instanceof AdminRefusal)
      return renderConsent(ctx, pending, redirectUri, chosen, err.refusal, lasts);
    throw err;
  }
  if (to === null)
    return renderConsent(
      ctx,
      pending,
      redirectUri,
      [],
      {
        code: 'invalid_value',
        reason: 'Nothing was ticked, so nothing was granted and the application is still waiting.',
        next: 'Tick what it may see or do and allow it, or deny it.',
      },
      lasts,
    );
  redirect(ctx.res, to, headersFor(redirectUri));
}

async function redirectUriOf(server: AuthorizationServer, ctx: Ctx): Promise<string> {
  const provider = await server.provider(ctx.base);
  try {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    return String(details.params['redirect_uri'] ?? '');
  } catch {
    return '';
  }
}
