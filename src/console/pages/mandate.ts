import { changeMandate, type MandateChange } from '../../admin/mandate.ts';
import { AdminRefusal } from '../../admin/errors.ts';
import { isHandle } from '../../core/handles.ts';
import { MAX_DENIAL_WINDOW_DAYS, normaliseMandate, type Mandate } from '../../core/mandate.ts';
import { issuableScopes } from '../../core/policy/index.ts';
import type { Refusal } from '../../core/refusal.ts';
import { AGENT_SCOPES, isScope, type Scope } from '../../core/scopes.ts';
import { tierOfStatus } from '../../core/tiers.ts';
import { html, type Html } from '../html.ts';
import { actsInWords, csrfField, noticeBox, refusalBox, scopeCheck, scopeNames } from '../layout.ts';
import { MANDATE, TIER } from '../glossary.ts';
import type { Authed } from '../context.ts';
import { isLive, mandateEffect } from '../effects.ts';
import { sendPage } from '../respond.ts';
import { termChanges, termLines } from '../term-words.ts';
import { redirect } from '../web.ts';

/** The mandate form's fields as typed: a bad value is shown back exactly, never lost. */
interface MandateForm {
  scopes: Scope[];
  mode: 'any' | 'list';
  counterparts: string;
  daily: string;
  reviews: boolean;
  answerMode: 'consult' | 'any' | 'list';
  answerList: string;
  inbox: boolean;
  name: boolean;
  text: boolean;
  selfReports: boolean;
  denialDays: string;
}

function fromMandate(m: Mandate): MandateForm {
  const answer = m.answer.counterparts;
  return {
    scopes: [...m.scopes],
    mode: m.consult.counterparts === 'any' ? 'any' : 'list',
    counterparts: m.consult.counterparts === 'any' ? '' : m.consult.counterparts.join(', '),
    daily: m.consult.dailyLimit === null ? '' : String(m.consult.dailyLimit),
    reviews: m.reviewsNeedApproval,
    answerMode: answer === 'any' || answer === 'consult' ? answer : 'list',
    answerList: answer === 'any' || answer === 'consult' ? '' : answer.join(', '),
    inbox: m.profile.inboxNeedsApproval,
    name: m.profile.nameNeedsApproval,
    text: m.profile.textNeedsApproval,
    selfReports: m.selfReportsNeedApproval,
    denialDays: String(m.denialWindowDays),
  };
}

/**
 * The form as posted. A post without the terms fieldset (`terms=on`: a page from before
 * these terms, or a hand-made post) keeps the current terms rather than reading the absent
 * boxes as unticked, so no term is loosened by a form that never showed it.
 */
function fromPost(form: URLSearchParams, current: Mandate): MandateForm {
  const base: MandateForm = {
    ...fromMandate(current),
    scopes: form.getAll('scope').filter(isScope),
    mode: form.get('mode') === 'list' ? 'list' : 'any',
    counterparts: (form.get('counterparts') ?? '').slice(0, 4000),
    daily: (form.get('daily') ?? '').trim().slice(0, 20),
    reviews: form.get('reviews') === 'on',
  };
  if (form.get('terms') !== 'on') return base;
  const answerMode = form.get('answer_mode');
  return {
    ...base,
    answerMode: answerMode === 'any' || answerMode === 'list' ? answerMode : 'consult',
    answerList: (form.get('answer_list') ?? '').slice(0, 4000),
    inbox: form.get('inbox') === 'on',
    name: form.get('name') === 'on',
    text: form.get('text') === 'on',
    selfReports: form.get('self_reports') === 'on',
    denialDays: (form.get('denial_days') ?? '').trim().slice(0, 20),
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

const yes = (b: boolean): 'true' | 'false' => (b ? 'true' : 'false');

function toChange(scopes: Scope[], f: MandateForm): MandateChange {
  return {
    scopes: scopes.join(','),
    consultCounterparts: f.mode === 'any' ? 'any' : handles(f.counterparts).join(','),
    consultDaily: f.daily === '' ? 'unlimited' : f.daily,
    reviewsNeedApproval: yes(f.reviews),
    answerCounterparts: f.answerMode === 'list' ? handles(f.answerList).join(',') : f.answerMode,
    inboxNeedsApproval: yes(f.inbox),
    nameNeedsApproval: yes(f.name),
    profileTextNeedsApproval: yes(f.text),
    selfReportsNeedApproval: yes(f.selfReports),
    denialWindowDays: f.denialDays,
  };
}

/** The mandate the form proposes (checked already), for the preview to compare with the current one. */
function proposedMandate(scopes: Scope[], f: MandateForm): Mandate {
  return normaliseMandate({
    scopes,
    consult: {
      counterparts: f.mode === 'any' ? 'any' : handles(f.counterparts),
      dailyLimit: f.daily === '' ? null : Number(f.daily),
    },
    reviewsNeedApproval: f.reviews,
    answer: { counterparts: f.answerMode === 'list' ? handles(f.answerList) : f.answerMode },
    profile: { inboxNeedsApproval: f.inbox, nameNeedsApproval: f.name, textNeedsApproval: f.text },
    selfReportsNeedApproval: f.selfReports,
    denialWindowDays: Number(f.denialDays),
  });
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
  if (!/^\d{1,3}$/.test(f.denialDays) || Number(f.denialDays) > MAX_DENIAL_WINDOW_DAYS) {
    return {
      code: 'invalid_value',
      reason: `Days a denial holds takes a whole number from 0 to ${MAX_DENIAL_WINDOW_DAYS}; got "${f.denialDays}".`,
      next: 'Correct the number.',
    };
  }
  const lists = [
    ...(f.mode === 'list' ? [f.counterparts] : []),
    ...(f.answerMode === 'list' ? [f.answerList] : []),
  ];
  for (const text of lists) {
    const list = handles(text);
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
      ${f.reviews ? html`<input type="hidden" name="reviews" value="on" />` : ''}
      <input type="hidden" name="terms" value="on" />
      <input type="hidden" name="answer_mode" value="${f.answerMode}" />
      <input type="hidden" name="answer_list" value="${f.answerList}" />
      ${f.inbox ? html`<input type="hidden" name="inbox" value="on" />` : ''}
      ${f.name ? html`<input type="hidden" name="name" value="on" />` : ''}
      ${f.text ? html`<input type="hidden" name="text" value="on" />` : ''}
      ${f.selfReports ? html`<input type="hidden" name="self_reports" value="on" />` : ''}
      <input type="hidden" name="denial_days" value="${f.denialDays}" />`;
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
    </div>
    <input type="hidden" name="terms" value="on" />
    <fieldset>
      <legend>Whom your agents may answer without asking you</legend>
      ${radio('answer_mode', 'answer-consult', 'consult', f.answerMode, 'The people they may consult')}
      ${radio('answer_mode', 'answer-any', 'any', f.answerMode, 'Anyone who asks me')}
      ${radio('answer_mode', 'answer-list', 'list', f.answerMode, 'Only these askers')}
      <label for="answer_list">Handles of askers, comma-separated</label>
      <input type="text" id="answer_list" name="answer_list" value="${f.answerList}" autocomplete="off" />
      <p class="hint">An answer to anyone else waits for you, and goes out once you approve it.</p>
    </fieldset>
    <fieldset>
      <legend>What waits for your approval</legend>
      ${checkbox('inbox', 'inbox', f.inbox, 'Opening or closing my inbox to questions')}
      ${checkbox('name', 'name', f.name, 'A new display name')}
      ${checkbox('text', 'text', f.text, 'A new headline or bio')}
      ${checkbox('self_reports', 'self-reports', f.selfReports, 'Self-reported evidence (a claim with no link behind it)')}
    </fieldset>
    <div class="field">
      <label for="denial_days"
        >Days a request I deny stays denied (0 to ${String(MAX_DENIAL_WINDOW_DAYS)}; 0: an agent may ask again
        at once)</label
      >
      <input
        type="number"
        id="denial_days"
        name="denial_days"
        min="0"
        max="${String(MAX_DENIAL_WINDOW_DAYS)}"
        value="${f.denialDays}"
        inputmode="numeric"
      />
    </div>`;
}

function radio(name: string, id: string, value: string, current: string, label: string): Html {
  return html`<div class="check">
    <input
      type="radio"
      id="${id}"
      name="${name}"
      value="${value}"
      ${current === value ? html` checked` : ''}
    /><label for="${id}">${label}</label>
  </div>`;
}

function checkbox(name: string, id: string, on: boolean, label: string): Html {
  return html`<div class="check">
    <input type="checkbox" id="${id}" name="${name}" value="on" ${on ? html` checked` : ''} /><label
      for="${id}"
      >${label}</label
    >
  </div>`;
}

/** Every term in words, as it stands or as it would stand after saving. */
function termList(m: Mandate): Html {
  return html`<ul class="terms">
    ${termLines(m).map((l) => html`<li>${l.words}</li>`)}
  </ul>`;
}

async function render(
  ctx: Authed,
  f: MandateForm,
  extra: { refusal?: Refusal; status?: number; notice?: string },
) {
  const current = await ctx.deps.store.getMandate(ctx.session.principal.id);
  const body = html`${noticeBox(extra.notice)}${extra.refusal ? refusalBox(extra.refusal) : ''}
    <p>
      ${MANDATE} It binds every token you issued, including forgotten ones, from its very next request.
      <span class="hint">${TIER}</span>
    </p>
    <section aria-labelledby="terms-now">
      <h2 id="terms-now">Your terms now</h2>
      ${termList(current)}
    </section>
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
  const me = ctx.session.principal;
  const current = await ctx.deps.store.getMandate(me.id);
  const f = fromPost(ctx.form, current);
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
  const proposed = proposedMandate(scopes, f);
  const changes = termChanges(current, proposed);
  /** The changed terms that govern a tool this token sees, before or after saving. */
  const termsFor = (seen: readonly string[]) => changes.filter((c) => c.tools.some((t) => seen.includes(t)));
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
              </table>
              <h3 id="token-terms">Terms that change for each token</h3>
              <ul class="terms" aria-labelledby="token-terms">
                ${effects.map((e) => {
                  const mine = termsFor([...e.before, ...e.after]);
                  return html`<li>
                    <strong>${e.token.label}</strong>:
                    ${mine.length ? mine.map((c) => html`${c.words} `) : 'no term that governs its tools changes.'}
                  </li>`;
                })}
              </ul>`
      }
    </section>
    <section aria-labelledby="term-changes">
      <h2 id="term-changes">What changes in your terms</h2>
      ${
        changes.length === 0
          ? html`<p>No term changes.</p>`
          : html`<ul class="terms">
              ${changes.map((c) => html`<li><strong>${c.words}</strong> <span class="hint">Now: ${c.was}</span></li>`)}
            </ul>`
      }
    </section>
    <section aria-labelledby="terms-after">
      <h2 id="terms-after">Your terms after saving</h2>
      <dl class="facts">
        <dt>Scopes</dt>
        <dd>${scopeNames(scopes)}</dd>
      </dl>
      ${termList(proposed)}
    </section>
    <form method="post" action="/console/mandate">
      ${csrfField(ctx.session)} ${fields(ctx, f, current, true)}
      <button type="submit" name="intent" value="save">Save these terms</button>
      <button type="submit" name="intent" value="edit" class="secondary">Change them again</button>
    </form>`;
  await sendPage(ctx, 'Mandate: preview', 'mandate', body);
}
