import type { ActivityRecord, TokenRecord } from '../../store/contract.ts';
import { codeInWords } from '../codes.ts';
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

/** What the call came to, for the principal: done, refused and why, or queued for them. */
function outcome(r: ActivityRecord): Html {
  switch (r.outcome) {
    case 'done':
      return DONE;
    case 'refused':
      return html`${REFUSED} ${codeInWords(r.code)}`;
    case 'queued':
      return html`<span class="tag">queued for you</span> ${codeInWords(r.code)}
        ${
          r.decisionId
            ? html`<a href="${url('/console/decisions')}#d-${r.decisionId}">See the decision</a>`
            : ''
        }`;
  }
}

/**
 * One call as a row of the table: when, with which token, what tool, what came of it and
 * what it sent. A row of its own, not written inside the page's template: every space a
 * template is indented by is sent with each row.
 */
function row(r: ActivityRecord, now: Date, token: Html): Html {
  return html`<tr>
    <th scope="row">${when(r.at, now)}</th>
    <td data-label="Token" class="member-text">${token}</td>
    <td data-label="Tool" class="tool"><code>${r.tool}</code></td>
    <td data-label="What came of it">${outcome(r)}</td>
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
  const body = html`<p class="hint">
      Every tool call your agents made with your tokens, newest first, whom or what it concerned first: kept
      for 90 days, and no agent can remove a call younger than that (a token making more than 20,000 calls a
      day is slowed instead). Your agents cannot read this record. A token whose calls you do not recognise
      can be revoked on the <a href="/console/tokens">tokens page</a>.
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
                  <th scope="col">Token</th>
                  <th scope="col">Tool</th>
                  <th scope="col">What came of it</th>
                  <th scope="col">What it sent</th>
                </tr>
              </thead>
              <tbody>
                ${p.shown.map((r) => row(r, ctx.now, name(r)))}
              </tbody>
            </table>`
      }
      ${p.nav}
    </section>`;
  await sendPage(ctx, 'Activity', 'activity', body);
}
