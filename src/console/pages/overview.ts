import { tierOfStatus } from '../../core/tiers.ts';
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
    <section aria-labelledby="you">
      <h2 id="you">You</h2>
      <dl class="facts">
        <dt>Handle</dt>
        <dd>@${me.handle}</dd>
        <dt>Name</dt>
        <dd>${me.displayName}</dd>
        <dt>Status</dt>
        <dd>${me.status}</dd>
        <dt>Your agents' tier</dt>
        <dd>${tier ?? 'none'}</dd>
        ${
          me.operator
            ? html`<dt>Role</dt>
                <dd>operator</dd>`
            : ''
        }
        <dt>Passkeys</dt>
        <dd>${passkeys.length} (<a href="/console/passkeys">manage</a>)</dd>
        <dt>Pending decisions</dt>
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
                  Each token sees what its scopes, your mandate (${scopeNames(mandate.scopes, 'no scopes')})
                  and your tier allow together.
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Token</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Tools it sees today</th>
                  </tr>
                </thead>
                <tbody>
                  ${tokens.map((t) => {
                    const tools = toolsSeen(registry, me, t.scopes, mandate.scopes);
                    return html`<tr>
                      <th scope="row">${tokenName(t)}</th>
                      <td data-label="Scopes">${scopeNames(t.scopes)}</td>
                      <td data-label="Tools it sees today">
                        <strong>${tools.length}</strong>: ${tools.join(', ')}
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
