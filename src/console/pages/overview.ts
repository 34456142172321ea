import { tierOfStatus } from '../../core/tiers.ts';
import { actOf, MANDATE, roleOf, technical, TIER, TIER_WORDS } from '../glossary.ts';
import { html } from '../html.ts';
import { paged } from '../paging.ts';
import { noticeBox, scopeGlossary, scopeNames } from '../layout.ts';
import type { Authed } from '../context.ts';
import { isLive, toolsSeen } from '../effects.ts';
import { sendPage } from '../respond.ts';
import { tokenName } from './tokens.ts';

/** Status and tier, and for each live token the tools it really sees today. */
export async function overviewPage(ctx: Authed): Promise<void> {
  const { store, registry } = ctx.deps;
  const me = ctx.session.principal;
  const mandate = await store.getMandate(me.id);
  const live = (await store.listTokens(me.id)).filter((t) => isLive(t, ctx.now)).reverse();
  const { shown: tokens, nav } = paged(live, ctx, 40, 'page', 'live tokens, newest first');
  const pending = await store.countDecisions(me.id, { status: 'pending' });
  const passkeys = await store.listPasskeys(me.id);
  const tier = tierOfStatus(me.status);
  const body = html`${noticeBox(ctx.query.get('done') === 'passkey' ? 'Passkey registered.' : undefined)}
    ${
      passkeys.length === 0 || live.length === 0 || pending > 0
        ? html`<section aria-labelledby="next">
            <h2 id="next">What to do next</h2>
            <ul>
              ${
                passkeys.length === 0
                  ? html`<li>
                      <a href="/console/passkeys">Register a passkey</a>, so that next time you sign in
                      without a link.
                    </li>`
                  : ''
              }
              ${
                live.length === 0
                  ? html`<li>
                      <a href="/console/tokens">Issue a token</a> for your agent: the key it uses to reach the
                      club for you, with only the permissions you give it.
                    </li>`
                  : ''
              }
              ${
                pending > 0
                  ? html`<li>
                      <a href="/console/decisions">Decide what your agents asked you</a>: ${pending} waiting.
                    </li>`
                  : ''
              }
            </ul>
          </section>`
        : ''
    }
    <section aria-labelledby="you">
      <h2 id="you">You</h2>
      <dl class="facts">
        <dt>Handle</dt>
        <dd>@${me.handle}</dd>
        <dt>Name</dt>
        <dd>${me.displayName}</dd>
        <dt>Role</dt>
        <dd>${roleOf(me)}</dd>
        <dt>Your agents' tier</dt>
        <dd>${TIER_WORDS[tier ?? 'anonymous']}. <span class="hint">${TIER}</span></dd>
        <dt>Your mandate</dt>
        <dd>
          ${scopeNames(mandate.scopes, 'no permissions')} (<a href="/console/mandate">change it</a>).
          <span class="hint">${MANDATE}</span>
        </dd>
        <dt>Passkeys</dt>
        <dd>${passkeys.length} (<a href="/console/passkeys">manage</a>)</dd>
        <dt>Decisions waiting for you</dt>
        <dd>${pending} (<a href="/console/decisions">open the queue</a>)</dd>
      </dl>
    </section>
    <section aria-labelledby="agents">
      <h2 id="agents">Your agents' tokens today</h2>
      ${nav}
      ${
        tokens.length === 0
          ? html`<p>No live tokens. <a href="/console/tokens">Issue one</a>.</p>`
          : html`<table>
                <caption>
                  Each token reaches what its permissions, your mandate and your tier allow together.
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Token</th>
                    <th scope="col">Permissions</th>
                    <th scope="col">It can act in your name to</th>
                  </tr>
                </thead>
                <tbody>
                  ${tokens.map((t) => {
                    const tools = toolsSeen(registry, me, t.scopes, mandate.scopes);
                    const acts = tools.map((x) => actOf(x)).filter((a) => a !== null && a.kind === 'do');
                    return html`<tr>
                      <th scope="row">${tokenName(t)}</th>
                      <td data-label="Permissions">${scopeNames(t.scopes)}</td>
                      <td data-label="It can act in your name to">
                        ${acts.length ? acts.map((a) => a!.can).join('; ') : 'nothing: it can only look'}
                        ${technical(html`It sees ${tools.length} tools: ${tools.join(', ')}`)}
                      </td>
                    </tr>`;
                  })}
                </tbody>
              </table>
              ${scopeGlossary()}`
      }
    </section>`;
  await sendPage(ctx, 'Overview', 'overview', body);
}
