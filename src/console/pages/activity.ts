import type { ActivityRecord, TokenRecord } from '../../store/contract.ts';
import { PRINCIPAL_ONLY_SCOPE, type Scope } from '../../core/scopes.ts';
import { forHumans } from '../../untrusted/index.ts';
import { codeInWords } from '../codes.ts';
import { toolsSeen } from '../effects.ts';
import { actOf, scopeWords, technical, type Act, type Args } from '../glossary.ts';
import type { Authed } from '../context.ts';
import { when } from '../dates.ts';
import { html, url, type Html } from '../html.ts';
import { refusalBox } from '../layout.ts';
import { keysetNav } from '../paging.ts';
import { sendPage } from '../respond.ts';
import { tokenName } from './tokens.ts';

const SHOWN = 30;

/** The arguments as the agent sent them (member text, cut short), or that there were none. */
function sent(r: ActivityRecord): Html {
  return r.summary === null ? html`<span class="hint">nothing</span>` : html`<code>${r.summary}</code>`;
}

const DONE = html`<span class="tag">done</span>`;
const REFUSED = html`<span class="tag bad">refused</span>`;

/**
 * A call's tool as the page reads it: its name as the agent sent it (any text), the act
 * the glossary names it by, and, for a call refused as not found, whether the token
 * could use it at all today (a tool the agent may not use is answered to the agent
 * exactly as one that does not exist; its principal is told which it was).
 */
interface Called {
  name: string;
  act: Act | null;
  /** The permission it needs, when the token does not reach it today; null when it does or it is public. */
  lacks: Scope | null;
}

/** The arguments read back from the summary (`to: "carol", question: "…"`), for the glossary's sentences. */
function argsOf(r: ActivityRecord): Args {
  const text = r.summary === null ? '' : forHumans(r.summary, 400);
  return (name) => {
    const m = new RegExp(`(?:^|, )${name}: "((?:[^"\\\\]|\\\\.)*)"`).exec(text);
    return m ? m[1]! : null;
  };
}

/** What the call came to, for the principal: done, refused and why, or queued for them. */
function outcome(r: ActivityRecord, c: Called): Html {
  // A name the club does not serve is on the row already, as the agent sent it: once is enough.
  const code = r.code ? html`code <code>${r.code}</code>` : '';
  const details =
    c.act === null
      ? r.code
        ? technical(html`${code}`)
        : ''
      : technical(html`Tool <code>${c.name}</code>${r.code ? html`, ${code}` : ''}`);
  switch (r.outcome) {
    case 'done':
      return html`${DONE} ${details}`;
    case 'refused':
      if (r.code === 'not_found' && c.act === null)
        return html`${REFUSED} Your agent asked for something the club does not have, so nothing was done.
          <span class="hint">Nothing for you to do, unless it keeps guessing: then revoke its token.</span>
          ${details}`;
      if (r.code === 'not_found' && c.lacks === PRINCIPAL_ONLY_SCOPE)
        return html`${REFUSED} Your agent tried to change your mandate. No agent may: only you can, here in
          the console. Nothing was done.
          <span class="hint"
            >If you did not expect it to try, look at what else it did, and revoke its token.</span
          >
          ${details}`;
      if (r.code === 'not_found' && c.lacks !== null)
        return html`${REFUSED} Your agent may not ${c.act?.can ?? 'do this'}: its token does not give it the
          permission “${scopeWords(c.lacks)?.name ?? c.lacks}”, or your mandate or your tier does not allow
          it. Nothing was done.
          <span class="hint"
            >If it should, issue it a <a href="/console/tokens">token</a> with that permission, or allow it in
            your <a href="/console/mandate">mandate</a>.</span
          >
          ${details}`;
      return html`${REFUSED} ${codeInWords(r.code, false)} ${details}`;
    case 'queued':
      return html`<span class="tag">waiting for you</span> ${codeInWords(r.code, false)}
        ${
          r.decisionId
            ? html`<a href="${url('/console/decisions')}#d-${r.decisionId}">See the decision</a>`
            : ''
        }
        ${details}`;
  }
}

/**
 * One call as a row of the table: when, with which token, what tool, what came of it and
 * what it sent. A row of its own, not written inside the page's template: every space a
 * template is indented by is sent with each row.
 */
function row(r: ActivityRecord, now: Date, token: Html, c: Called): Html {
  return html`<tr>
    <th scope="row">${when(r.at, now)}</th>
    <td data-label="Agent" class="agent">${token}</td>
    <td data-label="What it did" class="tool">
      ${c.act ? c.act.did(argsOf(r)) : html`asked for “<span class="member-text">${c.name}</span>”`}
    </td>
    <td data-label="What came of it" class="outcome">${outcome(r, c)}</td>
    <td data-label="What it sent" class="member-text">${sent(r)}</td>
  </tr>`;
}

/**
 * Every tools/call made with the principal's tokens, newest first, for all of them or
 * one (`?token=`): which agent called what, when, and what came of it, so a misbehaving
 * or compromised agent shows, and its token can be revoked. The arguments are shown as
 * the agent sent them: member text, cut short. Agents never read this record.
 */
export async function activityPage(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const { store } = ctx.deps;
  const tokens = await store.listTokens(me.id);
  const byId = new Map<string, TokenRecord>(tokens.map((t) => [t.id, t]));
  const asked = ctx.query.get('token');
  const token = asked === null || asked === '' ? null : (byId.get(asked) ?? null);
  if (asked && !token) {
    const body = html`${refusalBox({
        code: 'not_found',
        reason: 'That token is not one of yours.',
        next: 'Pick one of your tokens, or show them all.',
      })}
      <p><a href="/console/activity">All your agents' activity</a></p>`;
    return sendPage(ctx, 'Activity', 'activity', body, 404);
  }
  // One keyset page, newest first, from the number of the last call shown (`after`).
  const after = Number.parseInt(ctx.query.get('after') ?? '', 10);
  const rows = await store.pageActivity(me.id, token ? { tokenId: token.id } : {}, {
    limit: SHOWN + 1,
    newestFirst: true,
    ...(Number.isSafeInteger(after) && after > 0 ? { after } : {}),
  });
  const shown = rows.slice(0, SHOWN);
  const what = token ? 'this token’s calls, newest first' : 'calls, newest first';
  const p = {
    shown,
    nav: keysetNav(ctx, 'after', rows.length > SHOWN ? String(shown.at(-1)!.seq) : undefined, what),
  };
  // Each token's name drawn once for the page, however many of its rows it heads.
  const names = new Map<string, Html>();
  const name = (r: ActivityRecord) => {
    const t = byId.get(r.tokenId);
    if (!t) return html`<span class="label">${r.tokenLabel ?? 'a token no longer on record'}</span>`;
    let drawn = names.get(t.id);
    if (drawn === undefined) names.set(t.id, (drawn = tokenName(t)));
    return drawn;
  };
  // What each tool needs, and what each token reaches today: to tell "may not" from "does not exist".
  const needs = new Map(ctx.deps.registry.all().map((t) => [t.spec.name, t.spec.scope]));
  const mandate = await store.getMandate(me.id);
  const reaches = new Map<string, Set<string>>();
  const called = (r: ActivityRecord): Called => {
    const name = forHumans(r.tool, 80);
    const act = needs.has(name) ? actOf(name) : null;
    const scope = needs.get(name) ?? null;
    let lacks: Scope | null = null;
    if (r.code === 'not_found' && scope !== null) {
      const t = byId.get(r.tokenId);
      let seen = t ? reaches.get(t.id) : undefined;
      if (t && seen === undefined)
        reaches.set(t.id, (seen = new Set(toolsSeen(ctx.deps.registry, me, t.scopes, mandate.scopes))));
      if (!seen?.has(name)) lacks = scope;
    }
    return { name, act, lacks };
  };
  const body = html`<p class="hint">
      Everything your agents did with your tokens, newest first, whom or what it concerned first: kept for 90
      days, and no agent can remove a call younger than that (a token making more than 20,000 calls a day is
      slowed instead). Your agents cannot read this record. A token whose calls you do not recognise can be
      revoked on the <a href="/console/tokens">tokens page</a>.
    </p>
    <form method="get" action="/console/activity" class="filter">
      <div class="field">
        <label for="token">Whose calls</label>
        <select id="token" name="token">
          <option value="">All your tokens</option>
          ${[...tokens]
            .reverse()
            .map(
              (t) =>
                html`<option value="${t.id}" ${t.id === token?.id ? html` selected` : ''}>
                  ${t.label}
                </option>`,
            )}
        </select>
      </div>
      <div class="actions"><button type="submit" class="secondary">Show</button></div>
    </form>
    <section aria-labelledby="calls">
      <h2 id="calls">${token ? html`Calls made with ${tokenName(token)}` : 'Calls made with your tokens'}</h2>
      ${p.nav}
      ${
        p.shown.length === 0
          ? html`<p>${ctx.query.get('after') === null ? 'No calls recorded yet.' : 'No more calls.'}</p>`
          : html`<table class="activity">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Agent</th>
                  <th scope="col">What it did</th>
                  <th scope="col">What came of it</th>
                  <th scope="col">What it sent</th>
                </tr>
              </thead>
              <tbody>
                ${p.shown.map((r) => row(r, ctx.now, name(r), called(r)))}
              </tbody>
            </table>`
      }
      ${p.nav}
    </section>`;
  await sendPage(ctx, 'Activity', 'activity', body);
}
