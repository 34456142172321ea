import { AdminRefusal } from '../../admin/errors.ts';
import { issueAgentToken, revokeToken } from '../../admin/tokens.ts';
import { issuableScopes } from '../../core/policy/index.ts';
import { isScope, type Scope } from '../../core/scopes.ts';
import { tierOfStatus } from '../../core/tiers.ts';
import type { TokenRecord } from '../../store/contract.ts';
import { html, url, type Html } from '../html.ts';
import { paged } from '../paging.ts';
import { actOf, technical } from '../glossary.ts';
import {
  canSeeAndDo,
  csrfField,
  noticeBox,
  refusalBox,
  scopeCheck,
  scopeGlossary,
  scopeNames,
} from '../layout.ts';
import { when } from '../dates.ts';
import type { Authed } from '../context.ts';
import { isLive, toolsSeen } from '../effects.ts';
import { sendPage } from '../respond.ts';
import { redirect, sendHtmlFragment } from '../web.ts';
import { clientConfigs } from './token-config.ts';

interface IssueForm {
  label: string;
  scopes: Scope[];
  expires: string;
}

const EXPIRIES = ['1d', '7d', '30d', '90d', 'never'];
const TOKENS_SHOWN = 40;
/** The issue form as it first shows: nothing ticked, the least access first. */
const EMPTY: IssueForm = { label: '', scopes: [], expires: '30d' };
const ENDED_SHOWN = 20;
const NOTICES: Record<string, string> = {
  revoked:
    'Token revoked. Its agent is turned away from its very next request, and can do nothing more with it.',
};

/** An expiry choice in words: "7 days", "never". */
function expiryWords(e: string): string {
  return e === 'never' ? 'never (until you revoke it)' : e.replace('d', ' days').replace(/^1 days$/, '1 day');
}

function offered(ctx: Authed): readonly Scope[] {
  const tier = tierOfStatus(ctx.session.principal.status);
  return tier ? issuableScopes(tier) : [];
}

/** For a candidate: member scopes a token may carry now, inert until admission. */
function later(ctx: Authed): readonly Scope[] {
  const tier = tierOfStatus(ctx.session.principal.status);
  return tier ? issuableScopes(tier, true).filter((s) => !offered(ctx).includes(s)) : [];
}

function fromPost(form: URLSearchParams): IssueForm {
  return {
    label: (form.get('label') ?? '').slice(0, 200),
    scopes: form.getAll('scope').filter(isScope),
    expires: (form.get('expires') ?? '90d').slice(0, 20),
  };
}

/** When a token stopped opening anything, and why: revoked, or past its expiry. */
function ending(t: TokenRecord): { what: 'revoked' | 'expired'; at: string } {
  return t.revokedAt ? { what: 'revoked', at: t.revokedAt } : { what: 'expired', at: t.expiresAt ?? '' };
}

/**
 * How a token came to be. An OAuth connection is named by its client's name, which is
 * the application's own say-so: marked unverified, with the client id beside it.
 */
function origin(t: TokenRecord, now: Date): Html {
  return t.origin === 'oauth'
    ? html`Connected through OAuth, ${when(t.createdAt, now)}. The name is the application's own; the club has
        not checked it. Client id <code>${t.clientId ?? ''}</code>.`
    : html`Issued here, ${when(t.createdAt, now)}.`;
}

/** Where the calls made with a token are listed (the Activity page, filtered to it). */
function activityLink(t: TokenRecord): Html {
  return html`<a href="${url('/console/activity', { token: t.id })}">What it did</a>`;
}

/** A token's label, marked when it is a name an application gave itself. */
export function tokenName(t: TokenRecord, tag?: Html): Html {
  return html`<span class="label">${t.label}</span>${
      t.origin === 'oauth' ? html` <span class="tag">name unverified</span>` : ''
    }${tag ?? ''}`;
}

/** What a token reaches today, in short: how many acts in the member's name, how many ways to look. */
function reach(tools: readonly string[]): Html {
  const acts = tools.filter((t) => actOf(t)?.kind !== 'see').length;
  const reads = tools.length - acts;
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return html`${acts === 0 ? 'nothing in your name' : html`<strong>${n(acts, 'act', 'acts')}</strong> in your name`};
  ${n(reads, 'way', 'ways')} to look`;
}

/**
 * The confirmation before issuing: the choice restated in words (name, permissions, what
 * an agent could then see and do, expiry), nothing created until the person says so.
 */
async function confirm(ctx: Authed, f: IssueForm): Promise<void> {
  const me = ctx.session.principal;
  const problem =
    f.label.trim() === ''
      ? 'Give the token a name: which agent it is for.'
      : f.scopes.length === 0
        ? 'Tick at least one permission: a token with none would only read the public part of the club, which needs no token.'
        : !EXPIRIES.includes(f.expires)
          ? 'Choose when it expires from the list.'
          : null;
  if (problem)
    return render(ctx, f, {
      refusal: { code: 'invalid_value', reason: problem, next: 'Correct the form and continue.' },
      status: 400,
    });
  const mandate = await ctx.deps.store.getMandate(me.id);
  const tools = toolsSeen(ctx.deps.registry, me, f.scopes, mandate.scopes);
  const body = html`<p>Nothing is created yet. Check what you chose:</p>
    <dl class="facts">
      <dt>Name</dt>
      <dd class="member-text">${f.label.trim()}</dd>
      <dt>Permissions</dt>
      <dd>${scopeNames(f.scopes)}</dd>
      <dt>Expires</dt>
      <dd>after ${expiryWords(f.expires)}</dd>
    </dl>
    ${canSeeAndDo(tools)}
    <form method="post" action="/console/tokens">
      ${csrfField(ctx.session)}<input type="hidden" name="label" value="${f.label}" />
      ${f.scopes.map((s) => html`<input type="hidden" name="scope" value="${s}" />`)}
      <input type="hidden" name="expires" value="${f.expires}" />
      <div class="actions">
        <button type="submit" name="intent" value="issue">Issue the token</button>
        <button type="submit" name="intent" value="edit" class="secondary">Change it</button>
      </div>
    </form>`;
  await sendPage(ctx, 'Issue this token?', 'tokens', body);
}

export async function preview(ctx: Authed, scopes: readonly string[]): Promise<Html> {
  const me = ctx.session.principal;
  const mandate = await ctx.deps.store.getMandate(me.id);
  const tools = toolsSeen(ctx.deps.registry, me, scopes, mandate.scopes);
  return html`<div id="token-preview" role="status" aria-live="polite">
    <p>
      ${
        scopes.length === 0
          ? 'Nothing ticked yet: an agent with only this could read the public part of the club, no more.'
          : 'With these permissions, within your mandate and your tier, an agent could, today:'
      }
    </p>
    ${canSeeAndDo(tools)}
    ${technical(html`It would see ${tools.length} tools: <span class="tools">${tools.join(', ')}</span>`)}
  </div>`;
}

async function render(
  ctx: Authed,
  f: IssueForm,
  extra: { refusal?: Parameters<typeof refusalBox>[0]; status?: number },
) {
  const me = ctx.session.principal;
  // Live tokens newest first; the ones that open nothing any more in a section of their
  // own, latest ended first. Each list is paged so the page stays light.
  const all = await ctx.deps.store.listTokens(me.id);
  const live = all.filter((t) => isLive(t, ctx.now)).reverse();
  const ended = all
    .filter((t) => !isLive(t, ctx.now))
    .sort((a, b) => Date.parse(ending(b).at) - Date.parse(ending(a).at));
  const L = paged(live, ctx, TOKENS_SHOWN, 'page', 'live tokens, newest first');
  const E = paged(ended, ctx, ENDED_SHOWN, 'ended', 'revoked and expired tokens, latest first');
  const mandate = await ctx.deps.store.getMandate(me.id);
  const body = html`${noticeBox(NOTICES[ctx.query.get('done') ?? ''])}
    <section aria-labelledby="list">
      <h2 id="list">Live tokens: ${live.length}</h2>
      <p class="hint">
        A token is the key one agent uses to reach the club for you. Each opens only what its permissions,
        your <a href="/console/mandate">mandate</a> (your standing instructions to all your agents) and your
        tier (what your standing in the club allows) allow together.
      </p>
      ${L.nav}
      ${
        L.shown.length === 0
          ? html`<p>None. Issue one below.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Today it can</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                ${L.shown.map(
                  (t) =>
                    html`<tr>
                      <th scope="row">
                        ${tokenName(t)}<br /><span class="hint"
                          >${origin(t, ctx.now)} ${activityLink(t)}</span
                        >
                      </th>
                      <td data-label="Permissions">${scopeNames(t.scopes)}</td>
                      <td data-label="Today it can">
                        ${reach(toolsSeen(ctx.deps.registry, me, t.scopes, mandate.scopes))}
                      </td>
                      <td data-label="Last used">${when(t.lastUsedAt, ctx.now)}</td>
                      <td data-label="Expires">${when(t.expiresAt, ctx.now, 'not until you revoke it')}</td>
                      <td>
                        <form method="post" action="/console/tokens/revoke">
                          ${csrfField(ctx.session)}<input type="hidden" name="id" value="${t.id}" /><button
                            type="submit"
                            class="secondary"
                            aria-label="${t.origin === 'oauth' ? 'Disconnect' : 'Revoke'} ${t.label}"
                          >
                            ${t.origin === 'oauth' ? 'Disconnect…' : 'Revoke…'}
                          </button>
                        </form>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      ${scopeGlossary()}
    </section>
    ${
      ended.length === 0
        ? ''
        : html`<section aria-labelledby="ended">
            <h2 id="ended">Revoked and expired: ${ended.length}</h2>
            <p class="hint">
              These open nothing any more: an agent using one is turned away. Kept for the record.
            </p>
            ${E.nav}
            <table class="ended">
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Ended</th>
                  <th scope="col">Last used</th>
                </tr>
              </thead>
              <tbody>
                ${E.shown.map((t) => {
                  const end = ending(t);
                  return html`<tr>
                    <th scope="row">
                      ${tokenName(t, html` <span class="tag bad">${end.what}</span>`)}<br /><span class="hint"
                        >${origin(t, ctx.now)} ${activityLink(t)}</span
                      >
                    </th>
                    <td data-label="Permissions">${scopeNames(t.scopes)}</td>
                    <td data-label="Ended">
                      ${end.what === 'revoked' ? 'Revoked' : 'Expired'} ${when(end.at, ctx.now)}
                    </td>
                    <td data-label="Last used">${when(t.lastUsedAt, ctx.now)}</td>
                  </tr>`;
                })}
              </tbody>
            </table>
          </section>`
    }
    <section aria-labelledby="issue">
      <h2 id="issue">Issue a token</h2>
      ${extra.refusal ? refusalBox(extra.refusal) : ''}
      <form method="post" action="/console/tokens" id="issue-form" data-preview="/console/tokens/preview">
        ${csrfField(ctx.session)}
        <div class="field">
          <label for="label">Label (which agent it is for)</label>
          <input
            type="text"
            id="label"
            name="label"
            value="${f.label}"
            maxlength="64"
            required
            autocomplete="off"
          />
        </div>
        <fieldset>
          <legend>Permissions</legend>
          <p class="hint">
            Nothing is ticked: give this agent only what it needs. You can issue another token later.
          </p>
          ${offered(ctx).map((s) => scopeCheck(s, f.scopes.includes(s)))}
          ${later(ctx).map((s) =>
            scopeCheck(s, f.scopes.includes(s), 'for after admission: inert until the club admits you'),
          )}
        </fieldset>
        <div class="field">
          <label for="expires">Expires after</label>
          <select id="expires" name="expires">
            ${EXPIRIES.map(
              (e) =>
                html`<option value="${e}" ${e === f.expires ? html` selected` : ''}>
                  ${expiryWords(e)}
                </option>`,
            )}
          </select>
        </div>
        ${await preview(ctx, f.scopes)}
        <div class="actions">
          <button type="submit" name="intent" value="preview" class="secondary">
            Preview what it could do
          </button>
          <button type="submit" name="intent" value="confirm">Continue…</button>
        </div>
      </form>
      <script src="/console/assets/token-preview.js"></script>
    </section>`;
  await sendPage(ctx, 'Tokens', 'tokens', body, extra.status ?? 200);
}

export async function tokensPage(ctx: Authed): Promise<void> {
  await render(ctx, EMPTY, {});
}

/** The live preview's data: the tools a token with these scopes would see today (same computation as a request). */
export async function tokenPreview(ctx: Authed): Promise<void> {
  const f = fromPost(ctx.form);
  sendHtmlFragment(ctx.res, await preview(ctx, f.scopes));
}

export async function tokensPost(ctx: Authed): Promise<void> {
  const f = fromPost(ctx.form);
  const intent = ctx.form.get('intent');
  if (intent === 'confirm') return confirm(ctx, f);
  if (intent !== 'issue') return render(ctx, f, {});
  const me = ctx.session.principal;
  let issued;
  try {
    issued = await issueAgentToken(ctx.deps.store, ctx.deps.registry, me.handle, {
      scopes: f.scopes,
      label: f.label.trim(),
      expires: f.expires,
      now: ctx.now,
      afterAdmission: later(ctx).length > 0,
    });
  } catch (err) {
    if (err instanceof AdminRefusal) return render(ctx, f, { refusal: err.refusal, status: 400 });
    throw err;
  }
  const tier = tierOfStatus(me.status) ?? 'anonymous';
  const body = html`<div class="notice" role="status">
      <p>
        Token <strong>${issued.record.label}</strong> issued. Copy it now: it is shown only this once and the
        club keeps no copy it could show again.
      </p>
    </div>
    <p class="secret" id="secret">${issued.token}</p>
    <p class="warning">
      <strong>Treat it like a password.</strong> Anyone who has it can act as this agent, within its
      permissions, until you revoke it. Put it only in your agent's configuration; never in a chat, an e-mail
      or a shared file.
    </p>
    ${canSeeAndDo(issued.preview)}
    ${technical(html`It sees ${issued.preview.length} tools: ${issued.preview.join(', ')}`)}
    ${clientConfigs(`${ctx.base}/mcp`, issued.token, tier)}
    <h2>Next</h2>
    <p>
      Once your agent is configured, its calls show on <a href="/console/activity">Activity</a>, and what it
      asks you to decide under <a href="/console/decisions">Decisions</a>.
      <a href="/console/tokens">Back to your tokens</a>.
    </p>`;
  await sendPage(ctx, 'Token issued', 'tokens', body);
}

/** Revocation asks first; the second post, with confirm=yes, revokes. */
export async function revokePost(ctx: Authed): Promise<void> {
  const id = ctx.form.get('id') ?? '';
  const t = await ctx.deps.store.getToken(id);
  if (!t || t.principalId !== ctx.session.principal.id) {
    return render(ctx, EMPTY, {
      refusal: {
        code: 'not_found',
        reason: 'That token is not one of yours.',
        next: 'Pick a token from your list.',
      },
      status: 404,
    });
  }
  if (ctx.form.get('confirm') !== 'yes') {
    const body = html`<p>
        ${t.origin === 'oauth' ? 'Disconnect' : 'Revoke'} <strong>${t.label}</strong> (permissions
        ${scopeNames(t.scopes)})? Its agent is turned away from its very next request, and anything it asked
        you to decide is withdrawn. This cannot be undone: to let it back in, you would connect or issue anew.
      </p>
      <form method="post" action="/console/tokens/revoke">
        ${csrfField(ctx.session)}<input type="hidden" name="id" value="${t.id}" /><input
          type="hidden"
          name="confirm"
          value="yes"
        />
        <div class="actions">
          <button type="submit" class="danger">
            ${t.origin === 'oauth' ? 'Disconnect' : 'Revoke'} ${t.label}
          </button>
          <a href="/console/tokens">Keep it</a>
        </div>
      </form>`;
    return sendPage(
      ctx,
      t.origin === 'oauth' ? 'Disconnect an application?' : 'Revoke a token?',
      'tokens',
      body,
    );
  }
  try {
    await revokeToken(ctx.deps.store, t.id, ctx.now);
  } catch (err) {
    if (err instanceof AdminRefusal) return render(ctx, EMPTY, { refusal: err.refusal, status: 409 });
    throw err;
  }
  redirect(ctx.res, '/console/tokens?done=revoked');
}
