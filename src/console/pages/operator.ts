import { roleOf, statusWord } from '../glossary.ts';
import { makeLoginLink } from '../../admin/console-links.ts';
import { AdminRefusal } from '../../admin/errors.ts';
import type { Refusal } from '../../core/refusal.ts';
import { addPrincipal, requirePrincipal, setStatus } from '../../admin/principals.ts';
import type { PrincipalRecord } from '../../store/contract.ts';
import { when } from '../dates.ts';
import { evidenceTable, ORIGIN_WORDS } from '../evidence-table.ts';
import { html, url } from '../html.ts';
import { keysetNav, timePage } from '../paging.ts';
import { csrfField, noticeBox, refusalBox } from '../layout.ts';
import type { Authed } from '../context.ts';
import { sendPage } from '../respond.ts';
import { redirect } from '../web.ts';

/**
 * The operator's pages: every principal with search, admission, suspension and
 * reinstatement (each through the same admin functions as the CLI), sign-in links,
 * and what admission is decided on: a candidate's evidence and the members' reviews.
 * Anyone else is answered "not found" by the router.
 */
const PRINCIPALS_SHOWN = 30;
// Sized so a page of both, every field at its longest, stays under the console's 100 KB.
const REVIEWS_SHOWN = 15;
const EVIDENCE_SHOWN = 10;
/** The page a principal's detail is read at, wherever it was rendered from (a form's POST too). */
const DETAIL_PATH = '/console/operator/principal';

const NOTICES: Record<string, string> = {
  admitted: 'Admitted. Their agents get the member tier from their next request.',
  suspended: 'Suspended. Their console sessions ended and their tokens are refused from the next request.',
  reinstated: 'Reinstated.',
  added: 'Added as a candidate.',
};

function detailUrl(handle: string) {
  return url(DETAIL_PATH, { h: handle });
}

export async function operatorPage(
  ctx: Authed,
  extra: { refusal?: Refusal; add?: { handle: string; name: string }; status?: number } = {},
) {
  const q = (ctx.query.get('q') ?? '').trim().slice(0, 100);
  const after = ctx.query.get('after') ?? undefined;
  const page = await ctx.deps.store.pagePrincipals(q ? { query: q } : {}, {
    limit: PRINCIPALS_SHOWN + 1,
    ...(after !== undefined ? { after } : {}),
  });
  const shown = page.rows.slice(0, PRINCIPALS_SHOWN);
  const next = page.rows.length > PRINCIPALS_SHOWN ? shown[shown.length - 1]?.handle : page.walkedTo;
  const nav = keysetNav(ctx, 'after', next, 'principals');
  const total = q ? null : await ctx.deps.store.countPrincipals();
  const body = html`${noticeBox(NOTICES[ctx.query.get('done') ?? ''])}${extra.refusal ? refusalBox(extra.refusal) : ''}
    <form method="get" action="/console/operator" role="search" class="actions">
      <label for="q">Search by the start of words in handle, name or headline</label>
      <input type="search" id="q" name="q" value="${q}" />
      <button type="submit" class="secondary">Search</button>
    </form>
    <section aria-labelledby="all">
      <h2 id="all">
        ${q ? html`Principals matching “${q}”` : html`Principals: ${total ?? 0}`}${after !== undefined ? html`, after @${after}` : ''}
      </h2>
      ${nav}
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Handle</th>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Role</th>
            </tr>
          </thead>
          <tbody>
            ${shown.map(
              (p) =>
                html`<tr>
                  <th scope="row"><a href="${detailUrl(p.handle)}">@${p.handle}</a></th>
                  <td data-label="Name" class="member-text">${p.displayName}</td>
                  <td data-label="Status">${statusWord(p.status)}</td>
                  <td data-label="Role">${roleOf(p)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>
    <section aria-labelledby="add">
      <h2 id="add">Add a candidate</h2>
      <form method="post" action="/console/operator/add">
        ${csrfField(ctx.session)}
        <div class="field">
          <label for="handle">Handle</label
          ><input
            type="text"
            id="handle"
            name="handle"
            value="${extra.add?.handle ?? ''}"
            required
            autocomplete="off"
          />
        </div>
        <div class="field">
          <label for="name">Name</label
          ><input type="text" id="name" name="name" value="${extra.add?.name ?? ''}" autocomplete="off" />
        </div>
        <button type="submit">Add candidate</button>
      </form>
    </section>`;
  await sendPage(ctx, 'Operator: principals', 'operator', body, extra.status ?? 200);
}

export async function addCandidate(ctx: Authed): Promise<void> {
  const handle = (ctx.form.get('handle') ?? '').trim().slice(0, 100);
  const name = (ctx.form.get('name') ?? '').trim().slice(0, 200);
  try {
    await addPrincipal(ctx.deps.store, handle, { status: 'candidate', ...(name ? { name } : {}) });
  } catch (err) {
    if (err instanceof AdminRefusal)
      return operatorPage(ctx, { refusal: err.refusal, add: { handle, name }, status: 400 });
    throw err;
  }
  redirect(ctx.res, '/console/operator?done=added');
}

async function detail(
  ctx: Authed,
  p: PrincipalRecord,
  extra: { refusal?: Refusal; link?: { url: string; expiresAt: string } } = {},
) {
  // Paging links always lead back to this page, even when it answers a form (a sign-in link, a refusal).
  const here = {
    ...ctx,
    path: DETAIL_PATH,
    query: ctx.path === DETAIL_PATH ? ctx.query : new URLSearchParams({ h: p.handle }),
  };
  const { shown: reviews, nav } = await timePage(here, {
    key: 'reviews',
    size: REVIEWS_SHOWN,
    what: 'reviews, latest first',
    read: (page) => ctx.deps.store.pageReviews(p.id, page),
    keyOf: (r) => ({ at: r.createdAt, id: r.id }),
  });
  const reviewCount = await ctx.deps.store.countReviews(p.id);
  const evidence = await timePage(here, {
    key: 'evidence',
    size: EVIDENCE_SHOWN,
    what: 'evidence, latest first',
    read: (page) => ctx.deps.store.pageEvidence(p.id, page),
    keyOf: (e) => ({ at: e.createdAt, id: e.id }),
  });
  const byOrigin = Object.entries(await ctx.deps.store.countEvidenceByOrigin(p.id)).filter(([, n]) => n > 0);
  const evidenceTotal = byOrigin.reduce((sum, [, n]) => sum + n, 0);
  const actions: { action: string; label: string }[] = [];
  if (p.status === 'candidate') actions.push({ action: 'admit', label: 'Admit as member' });
  if (p.status !== 'suspended') actions.push({ action: 'suspend', label: 'Suspend…' });
  else actions.push({ action: 'reinstate', label: 'Reinstate…' });
  const body = html`${noticeBox(NOTICES[ctx.query.get('done') ?? ''])}${extra.refusal ? refusalBox(extra.refusal) : ''}
    <dl class="facts">
      <dt>Name</dt>
      <dd class="member-text">${p.displayName}</dd>
      <dt>Headline</dt>
      <dd class="member-text">${p.headline}</dd>
      <dt>Status</dt>
      <dd>${statusWord(p.status)}</dd>
      <dt>Role</dt>
      <dd>${roleOf(p)}</dd>
    </dl>
    <div class="actions">
      ${actions.map(
        (a) =>
          html`<form method="post" action="/console/operator/status" class="inline">
            ${csrfField(ctx.session)}<input type="hidden" name="handle" value="${p.handle}" /><input
              type="hidden"
              name="action"
              value="${a.action}"
            /><button type="submit" ${a.action === 'admit' ? '' : html` class="secondary"`}>
              ${a.label}
            </button>
          </form>`,
      )}
    </div>
    <section aria-labelledby="link">
      <h2 id="link">Sign-in link</h2>
      ${
        extra.link
          ? html`<p>
                One-time link for @${p.handle}, valid until ${when(extra.link.expiresAt, ctx.now)}. Give it to
                them privately; it is shown only now.
              </p>
              <p class="secret" id="login-link">${extra.link.url}</p>`
          : ''
      }
      <form method="post" action="/console/operator/link">
        ${csrfField(ctx.session)}<input type="hidden" name="handle" value="${p.handle}" />
        <div class="field">
          <label for="expires">Valid for</label
          ><select id="expires" name="expires">
            <option value="15m">15 minutes</option>
            <option value="1h">1 hour</option>
            <option value="1d">1 day</option>
          </select>
        </div>
        <button type="submit" class="secondary">Make a sign-in link</button>
      </form>
    </section>
    <section aria-labelledby="evidence">
      <h2 id="evidence">Evidence filed by @${p.handle}: ${evidenceTotal}</h2>
      ${
        byOrigin.length
          ? html`<p class="hint">
              By origin: ${byOrigin.map(([o, n]) => `${ORIGIN_WORDS[o] ?? o} ${n}`).join(', ')}. A claim from
              an artifact carries its reference; a self-report carries none.
            </p>`
          : ''
      }
      ${evidence.nav} ${evidenceTable(evidence.shown, ctx.now, 'No evidence filed.')}
    </section>
    <section aria-labelledby="reviews">
      <h2 id="reviews">Reviews of @${p.handle}: ${reviewCount}</h2>
      ${nav}
      ${
        reviews.length === 0
          ? html`<p>No reviews.</p>`
          : html`<div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">By</th>
                    <th scope="col">Verdict</th>
                    <th scope="col">Note</th>
                    <th scope="col">When</th>
                  </tr>
                </thead>
                <tbody>
                  ${reviews.map(
                    (r) =>
                      html`<tr>
                        <th scope="row">@${r.reviewerHandle}</th>
                        <td data-label="Verdict">${r.verdict}</td>
                        <td data-label="Note" class="member-text">${r.note}</td>
                        <td data-label="When">${when(r.createdAt, ctx.now)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>
    <p><a href="/console/operator">All principals</a></p>`;
  await sendPage(ctx, `Operator: @${p.handle}`, 'operator', body, extra.refusal ? 400 : 200);
}

export async function principalDetail(ctx: Authed): Promise<void> {
  try {
    await detail(ctx, await requirePrincipal(ctx.deps.store, ctx.query.get('h') ?? ''));
  } catch (err) {
    if (err instanceof AdminRefusal) return operatorPage(ctx, { refusal: err.refusal, status: 404 });
    throw err;
  }
}

const ACTIONS = {
  admit: { status: 'member', done: 'admitted', confirm: false },
  suspend: { status: 'suspended', done: 'suspended', confirm: true },
  reinstate: { status: 'member', done: 'reinstated', confirm: true },
} as const;

/** Admit at once; suspend and reinstate ask first (confirm=yes on the second post). */
export async function statusPost(ctx: Authed): Promise<void> {
  const handle = ctx.form.get('handle') ?? '';
  const name = ctx.form.get('action') ?? '';
  const act = Object.hasOwn(ACTIONS, name) ? ACTIONS[name as keyof typeof ACTIONS] : null;
  let p: PrincipalRecord;
  try {
    p = await requirePrincipal(ctx.deps.store, handle);
  } catch (err) {
    if (err instanceof AdminRefusal) return operatorPage(ctx, { refusal: err.refusal, status: 404 });
    throw err;
  }
  if (!act) {
    return detail(ctx, p, {
      refusal: { code: 'invalid_value', reason: 'Unknown action.', next: 'Use one of the buttons.' },
    });
  }
  if (act.confirm && ctx.form.get('confirm') !== 'yes') {
    const what =
      name === 'suspend'
        ? html`Suspend @${p.handle}? Their console sessions end now and every agent token of theirs is refused
          from its next request.`
        : html`Reinstate @${p.handle} as a member?`;
    const body = html`<p>${what}</p>
      <form method="post" action="/console/operator/status">
        ${csrfField(ctx.session)}<input type="hidden" name="handle" value="${p.handle}" /><input
          type="hidden"
          name="action"
          value="${name}"
        /><input type="hidden" name="confirm" value="yes" />
        <div class="actions">
          <button type="submit" class="${name === 'suspend' ? 'danger' : ''}">
            ${name === 'suspend' ? 'Suspend' : 'Reinstate'} @${p.handle}
          </button>
          <a href="${detailUrl(p.handle)}">Cancel</a>
        </div>
      </form>`;
    return sendPage(ctx, name === 'suspend' ? 'Suspend?' : 'Reinstate?', 'operator', body);
  }
  if (name === 'reinstate' && p.status !== 'suspended') {
    return detail(ctx, p, {
      refusal: { code: 'conflict', reason: `@${p.handle} is not suspended.`, next: 'Nothing to do.' },
    });
  }
  try {
    await setStatus(ctx.deps.store, p.handle, act.status);
  } catch (err) {
    if (err instanceof AdminRefusal) return detail(ctx, p, { refusal: err.refusal });
    throw err;
  }
  redirect(ctx.res, `/console/operator/principal?h=${encodeURIComponent(p.handle)}&done=${act.done}`);
}

export async function linkPost(ctx: Authed): Promise<void> {
  const handle = ctx.form.get('handle') ?? '';
  let p: PrincipalRecord;
  try {
    p = await requirePrincipal(ctx.deps.store, handle);
  } catch (err) {
    if (err instanceof AdminRefusal) return operatorPage(ctx, { refusal: err.refusal, status: 404 });
    throw err;
  }
  try {
    const link = await makeLoginLink(ctx.deps.store, p.handle, {
      publicUrl: ctx.base,
      expires: ctx.form.get('expires') ?? '15m',
      now: ctx.now,
    });
    await detail(ctx, p, { link });
  } catch (err) {
    if (err instanceof AdminRefusal) return detail(ctx, p, { refusal: err.refusal });
    throw err;
  }
}
