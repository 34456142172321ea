import { changeMandate, type MandateChange } from '../../admin/mandate.ts';
import { AdminRefusal } from '../../admin/errors.ts';
import { isHandle } from '../../core/handles.ts';
import type { Mandate } from '../../core/mandate.ts';
import { issuableScopes } from '../../core/policy/index.ts';
import type { Refusal } from '../../core/refusal.ts';
import { AGENT_SCOPES, isScope, type Scope } from '../../core/scopes.ts';
import { tierOfStatus } from '../../core/tiers.ts';
import { html, type Html } from '../html.ts';
import { actsInWords, csrfField, noticeBox, refusalBox, scopeCheck, scopeNames } from '../layout.ts';
import type { Authed } from '../context.ts';
import { isLive, mandateEffect } from '../effects.ts';
import { sendPage } from '../respond.ts';
import { redirect } from '../web.ts';

/** The mandate form's fields as typed: a bad value is shown back exactly, never lost. */
interface MandateForm {
  scopes: Scope[];
  mode: 'any' | 'list';
  counterparts: string;
  daily: string;
  reviews: boolean;
}

function fromMandate(m: Mandate): MandateForm {
  return {
    scopes: [...m.scopes],
    mode: m.consult.counterparts === 'any' ? 'any' : 'list',
    counterparts: m.consult.counterparts === 'any' ? '' : m.consult.counterparts.join(', '),
    daily: m.consult.dailyLimit === null ? '' : String(m.consult.dailyLimit),
    reviews: m.reviewsNeedApproval,
  };
}

function fromPost(form: URLSearchParams): MandateForm {
  return {
    scopes: form.getAll('scope').filter(isScope),
    mode: form.get('mode') === 'list' ? 'list' : 'any',
    counterparts: (form.get('counterparts') ?? '').slice(0, 4000),
    daily: (form.get('daily') ?? '').trim().slice(0, 20),
    reviews: form.get('reviews') === 'on',
  };
}

/** Scopes the form offers: those an agent of this tier may be issued; mandate:write never. */
function offered(ctx: Authed): readonly Scope[] {
  const tier = tierOfStatus(ctx.session.principal.status);
  return tier ? issuableScopes(tier) : [];
}

/**
 * The proposed scopes: what was ticked among the offered ones, plus what the mandate
 * holds beyond the tier (kept as it is, in force once the tier allows it).
 */
function proposedScopes(ctx: Authed, f: MandateForm, current: Mandate): Scope[] {
  const offer = offered(ctx);
  const kept = current.scopes.filter((s) => !offer.includes(s));
  return AGENT_SCOPES.filter((s) => (offer.includes(s) && f.scopes.includes(s)) || kept.includes(s));
}

function handles(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((h) => h.replace(/^@/, ''))
    .filter(Boolean);
}

function toChange(scopes: Scope[], f: MandateForm): MandateChange {
  return {
    scopes: scopes.join(','),
    consultCounterparts: f.mode === 'any' ? 'any' : handles(f.counterparts).join(','),
    consultDaily: f.daily === '' ? 'unlimited' : f.daily,
    reviewsNeedApproval: f.reviews ? 'true' : 'false',
  };
}

/** The same checks set_mandate makes, before the preview, so a preview never shows what saving would refuse. */
async function check(ctx: Authed, f: MandateForm): Promise<Refusal | null> {
  if (f.daily !== '' && (!/^\d{1,5}$/.test(f.daily) || Number(f.daily) > 10000)) {
    return {
      code: 'invalid_value',
      reason: `Questions per day takes a whole number from 0 to 10000, or blank for no limit; got "${f.daily}".`,
      next: 'Correct the number.',
    };
  }
  if (f.mode === 'list') {
    const list = handles(f.counterparts);
    if (list.length > 500)
      return { code: 'invalid_value', reason: 'At most 500 counterparts.', next: 'Shorten the list.' };
    for (const h of list) {
      if (!isHandle(h) || !(await ctx.deps.store.getPrincipalByHandle(h))) {
        return {
          code: 'not_found',
          reason: `No principal has the handle "${h}".`,
          next: 'List counterparts by their exact handles, separated by commas.',
        };
      }
    }
  }
  return null;
}

function fields(ctx: Authed, f: MandateForm, current: Mandate, hidden: boolean): Html {
  const offer = offered(ctx);
  const kept = current.scopes.filter((s) => !offer.includes(s));
  if (hidden) {
    return html`${f.scopes
        .filter((s) => offer.includes(s))
        .map((s) => html`<input type="hidden" name="scope" value="${s}" />`)}
      <input type="hidden" name="mode" value="${f.mode}" />
      <input type="hidden" name="counterparts" value="${f.counterparts}" />
      <input type="hidden" name="daily" value="${f.daily}" />
      ${f.reviews ? html`<input type="hidden" name="reviews" value="on" />` : ''}`;
  }
  return html`<fieldset>
      <legend>Scopes your agents may use</legend>
      ${offer.map((s) => scopeCheck(s, f.scopes.includes(s)))}
      ${kept.length ? html`<p class="hint">Kept as they are, in force once your tier allows them: ${scopeNames(kept)}.</p>` : ''}
      <p class="hint"><code>mandate:write</code> is yours alone and is never granted to an agent.</p>
    </fieldset>
    <fieldset>
      <legend>Whom your agents may consult without asking you</legend>
      <div class="check">
        <input
          type="radio"
          id="mode-any"
          name="mode"
          value="any"
          ${f.mode === 'any' ? html` checked` : ''}
        /><label for="mode-any">Any member</label>
      </div>
      <div class="check">
        <input
          type="radio"
          id="mode-list"
          name="mode"
          value="list"
          ${f.mode === 'list' ? html` checked` : ''}
        /><label for="mode-list">Only these handles</label>
      </div>
      <label for="counterparts">Handles, separated by commas</label>
      <input type="text" id="counterparts" name="counterparts" value="${f.counterparts}" autocomplete="off" />
    </fieldset>
    <div class="field">
      <label for="daily">Questions per day before an agent needs your approval (blank: no limit)</label>
      <input
        type="number"
        id="daily"
        name="daily"
        min="0"
        max="10000"
        value="${f.daily}"
        inputmode="numeric"
      />
    </div>
    <div class="check">
      <input
        type="checkbox"
        id="reviews"
        name="reviews"
        value="on"
        ${f.reviews ? html` checked` : ''}
      /><label for="reviews">Candidate reviews by my agents wait for my approval</label>
    </div>`;
}

async function render(
  ctx: Authed,
  f: MandateForm,
  extra: { refusal?: Refusal; status?: number; notice?: string },
) {
  const current = await ctx.deps.store.getMandate(ctx.session.principal.id);
  const body = html`${noticeBox(extra.notice)}${extra.refusal ? refusalBox(extra.refusal) : ''}
    <p>Your mandate binds every token you issued, including forgotten ones, from its very next request.</p>
    <form method="post" action="/console/mandate">
      ${csrfField(ctx.session)} ${fields(ctx, f, current, false)}
      <button type="submit" name="intent" value="preview">Preview the effect</button>
    </form>`;
  await sendPage(ctx, 'Mandate', 'mandate', body, extra.status ?? 200);
}

export async function mandatePage(ctx: Authed): Promise<void> {
  const current = await ctx.deps.store.getMandate(ctx.session.principal.id);
  await render(ctx, fromMandate(current), {
    ...(ctx.query.get('done') === 'saved'
      ? { notice: 'Mandate saved. It is in force from every token’s next request.' }
      : {}),
  });
}

/** Preview (the effect per token) or save (set_mandate, as the principal). */
export async function mandatePost(ctx: Authed): Promise<void> {
  const f = fromPost(ctx.form);
  const me = ctx.session.principal;
  const current = await ctx.deps.store.getMandate(me.id);
  const problem = await check(ctx, f);
  if (problem) return render(ctx, f, { refusal: problem, status: 400 });
  if (ctx.form.get('intent') === 'edit') return render(ctx, f, {});
  const scopes = proposedScopes(ctx, f, current);
  if (ctx.form.get('intent') === 'save') {
    try {
      await changeMandate(ctx.deps, me.handle, toChange(scopes, f));
    } catch (err) {
      if (err instanceof AdminRefusal) return render(ctx, f, { refusal: err.refusal, status: 400 });
      throw err;
    }
    return redirect(ctx.res, '/console/mandate?done=saved');
  }
  const tokens = (await ctx.deps.store.listTokens(me.id)).filter((t) => isLive(t, ctx.now));
  const effects = mandateEffect(ctx.deps.registry, me, tokens, current.scopes, scopes);
  const body = html`<p>
      Nothing is saved yet. This is what each of your live tokens would see from its next request.
    </p>
    <section aria-labelledby="effect">
      <h2 id="effect">Effect on your tokens</h2>
      ${
        effects.length === 0
          ? html`<p>You have no live tokens: nothing changes for any agent today.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Tools now</th>
                  <th scope="col">After saving</th>
                  <th scope="col">Gains</th>
                  <th scope="col">Loses</th>
                </tr>
              </thead>
              <tbody>
                ${effects.map(
                  (e) =>
                    html`<tr>
                      <th scope="row">${e.token.label}</th>
                      <td data-label="Tools now">${e.before.length}</td>
                      <td data-label="After saving">${e.after.length}</td>
                      <td data-label="Gains" class="gain">${actsInWords(e.gained)}</td>
                      <td data-label="Loses" class="loss">${actsInWords(e.lost)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      <dl class="facts">
        <dt>Scopes</dt>
        <dd>${scopeNames(scopes)}</dd>
        <dt>Consult</dt>
        <dd>
          ${f.mode === 'any' ? 'any member' : handles(f.counterparts).join(', ') || 'nobody without your approval'}
        </dd>
        <dt>Questions per day</dt>
        <dd>${f.daily === '' ? 'no limit' : f.daily}</dd>
        <dt>Reviews need approval</dt>
        <dd>${f.reviews ? 'yes' : 'no'}</dd>
      </dl>
    </section>
    <form method="post" action="/console/mandate">
      ${csrfField(ctx.session)} ${fields(ctx, f, current, true)}
      <button type="submit" name="intent" value="save">Save these terms</button>
      <button type="submit" name="intent" value="edit" class="secondary">Change them again</button>
    </form>`;
  await sendPage(ctx, 'Mandate: preview', 'mandate', body);
}
