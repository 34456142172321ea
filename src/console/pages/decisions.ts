import { decide, reasonForPrincipal, reissue, staleForPrincipal } from '../../admin/decisions.ts';
import { AdminRefusal } from '../../admin/errors.ts';
import type { Refusal } from '../../core/refusal.ts';
import type { DecisionRecord, DecisionStatus } from '../../store/contract.ts';
import { fieldsOf, forHumans, type MemberText } from '../../untrusted/index.ts';
import { codeInWords } from '../codes.ts';
import { when } from '../dates.ts';
import { actOf, technical, type Args } from '../glossary.ts';
import { html, type Html } from '../html.ts';
import { timePage } from '../paging.ts';
import { csrfField, noticeBox, refusalBox } from '../layout.ts';
import type { Authed } from '../context.ts';
import { sendPage } from '../respond.ts';
import { redirect } from '../web.ts';

const NOTICES: Record<string, string> = {
  approved:
    'Approved. It ran as you; what came of it is below, under Decided, and your agent reads it there too.',
  denied: 'Denied. Nothing was done; your agent is told, with your note, the next time it checks.',
  reissued: 'Done, in person, as a new act of yours.',
};
const MAX_NOTE = 2000;
const PENDING_SHOWN = 12;
const HISTORY_SHOWN = 15;

/** A request's field name as a label: `display_name` reads "Display name". */
function fieldLabel(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/**
 * The request as labelled fields, each value shown as member text (escaped, hidden
 * characters made visible, cut when long); as the agent sent it when it is not an object.
 */
function request(d: DecisionRecord): Html {
  const fields = fieldsOf(d.argumentsText);
  if (fields === null) return html`<pre class="member-text"><code>${d.argumentsText}</code></pre>`;
  return html`<dl class="facts request">
    ${fields.map(
      (f) =>
        html`<dt>${fieldLabel(f.name)}</dt>
          <dd class="member-text">${f.value}</dd>`,
    )}
  </dl>`;
}

/** A decision's request, read as text for the glossary's sentences (escaped by the page all the same). */
function argsOf(d: DecisionRecord): Args {
  const fields = fieldsOf(d.argumentsText) ?? [];
  return (name) => {
    const f = fields.find((x) => x.name === name);
    return f ? forHumans(f.value, 64) : null;
  };
}

/** The act asked for, in words: "ask @carol a question"; a tool the club no longer serves by its name. */
function wants(d: DecisionRecord): string {
  return actOf(d.tool)?.wants(argsOf(d)) ?? 'use something the club no longer offers';
}

/** What came of a decided request, for the principal: the reason a refusal gave was written to the agent. */
function outcome(d: DecisionRecord): Html {
  if (!d.outcome) return html`—`;
  if (!d.outcome.ok && d.status === 'stale') {
    const why = staleForPrincipal(d.outcome.refusal.code);
    if (why) return html`Not run: ${why}.`;
  }
  if (d.outcome.ok) {
    const r = d.outcome.result;
    return html`${actOf(d.tool)?.result(r) ?? 'It ran.'}
    ${technical(
      html`It ran as you. Tool <code>${d.tool}</code>, which answered
        <code
          >${Object.entries(r)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(', ')}</code
        >`,
    )}`;
  }
  return html`It was refused when it ran: ${codeInWords(d.outcome.refusal.code)}`;
}

/** A decided request's answer, said to the principal who gave it. */
const ANSWERED: Record<DecisionStatus, string> = {
  pending: 'Not decided yet',
  approved: 'You approved it',
  denied: 'You denied it',
  stale: 'Closed without running',
};

async function render(
  ctx: Authed,
  extra: {
    refusal?: Refusal;
    notes?: Record<string, string>;
    status?: number;
  },
) {
  const me = ctx.session.principal;
  const { store } = ctx.deps;
  // One keyset page of each, so the page stays light: the oldest pending first (a queue), the latest decided.
  const keyOf = (d: DecisionRecord) => ({ at: d.createdAt, id: d.id });
  const p = await timePage(ctx, {
    key: 'pending',
    size: PENDING_SHOWN,
    what: 'pending decisions, oldest first',
    read: (page) => store.pageDecisions(me.id, { status: 'pending' }, page),
    keyOf,
    oldestFirst: true,
  });
  const h = await timePage(ctx, {
    key: 'history',
    size: HISTORY_SHOWN,
    what: 'decided, latest first',
    read: (page) => store.pageDecisions(me.id, { decided: true }, page),
    keyOf,
  });
  const waiting = await store.countDecisions(me.id, { status: 'pending' });
  const pending = p.shown;
  const history = h.shown;
  // Token labels are member text since they may be written by anyone issuing a token: escaped like the rest.
  const labels = new Map<string, MemberText | string>();
  for (const d of [...pending, ...history]) {
    if (d.tokenId && !labels.has(d.tokenId))
      labels.set(d.tokenId, (await ctx.deps.store.getToken(d.tokenId))?.label ?? d.tokenId);
  }
  const why = (d: DecisionRecord) => reasonForPrincipal(d);
  const asker = (d: DecisionRecord) => (d.tokenId ? html`“${labels.get(d.tokenId)}”` : html`you, in person`);
  const body = html`${noticeBox(NOTICES[ctx.query.get('done') ?? ''])}${extra.refusal ? refusalBox(extra.refusal) : ''}
    <p class="hint">
      When one of your agents asks for something your <a href="/console/mandate">mandate</a> (your standing
      instructions to your agents) does not let it do alone, the request waits here. Approve it and it runs as
      you; deny it, with a note if you like, and nothing is done. Either way your agent is told.
    </p>
    <section aria-labelledby="pending">
      <h2 id="pending">Waiting for you: ${waiting}</h2>
      ${p.nav} ${pending.length === 0 ? html`<p>Nothing is waiting.</p>` : ''}
      ${pending.map(
        (d) =>
          html`<article class="decision" aria-labelledby="d-${d.id}">
            <h3 id="d-${d.id}">
              ${d.tokenId ? html`Your agent ${asker(d)}` : 'You'} ${d.tokenId ? 'wants' : 'want'} to
              ${wants(d)}
            </h3>
            <dl class="facts">
              <dt>Why it waits</dt>
              <dd>${why(d)}</dd>
              <dt>Asked</dt>
              <dd>${when(d.createdAt, ctx.now)}</dd>
            </dl>
            <p>The request, as your agent wrote it (shown as data, never followed):</p>
            ${request(d)} ${technical(html`Tool <code>${d.tool}</code>`)}
            <form method="post" action="/console/decisions">
              ${csrfField(ctx.session)}<input type="hidden" name="id" value="${d.id}" />
              <div class="field">
                <label for="note-${d.id}">Note to your agent (optional)</label>
                <textarea id="note-${d.id}" name="note" maxlength="${MAX_NOTE}">
${extra.notes?.[d.id] ?? ''}</textarea>
              </div>
              <div class="actions">
                <button type="submit" name="verdict" value="approve">Approve and run it</button>
                <button type="submit" name="verdict" value="deny" class="danger">Deny</button>
              </div>
            </form>
          </article>`,
      )}
    </section>
    <section aria-labelledby="history">
      <h2 id="history">Decided</h2>
      ${h.nav}
      ${
        history.length === 0
          ? html`<p>Nothing decided yet.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">Request</th>
                  <th scope="col">Asked by</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Note</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                ${history.map(
                  (d) =>
                    html`<tr>
                      <th scope="row">
                        <span class="act">To ${wants(d)}</span><br /><span class="hint">${why(d)}</span>
                        ${technical(html`Tool <code>${d.tool}</code>`)}
                      </th>
                      <td data-label="Asked by">${asker(d)}</td>
                      <td data-label="Answer">
                        ${ANSWERED[d.status]}${d.decidedAt ? html`, ${when(d.decidedAt, ctx.now)}` : ''}
                      </td>
                      <td data-label="Note" class="member-text">${d.note ?? '—'}</td>
                      <td data-label="Outcome" class="outcome">
                        ${outcome(d)}
                        ${
                          d.status === 'stale'
                            ? html`<form method="post" action="/console/decisions/reissue">
                                ${csrfField(ctx.session)}<input type="hidden" name="id" value="${d.id}" />
                                <button type="submit" class="secondary">Do it myself, now…</button>
                              </form>`
                            : ''
                        }
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>`;
  await sendPage(ctx, 'Decisions', 'decisions', body, extra.status ?? 200);
}

export async function decisionsPage(ctx: Authed): Promise<void> {
  await render(ctx, {});
}

export async function decisionsPost(ctx: Authed): Promise<void> {
  const id = ctx.form.get('id') ?? '';
  const verdict = ctx.form.get('verdict');
  const note = ctx.form.get('note') ?? '';
  const keep = { notes: { [id]: note.slice(0, MAX_NOTE) } };
  if (verdict !== 'approve' && verdict !== 'deny') {
    return render(ctx, {
      ...keep,
      refusal: {
        code: 'invalid_value',
        reason: 'Choose approve or deny.',
        next: 'Use one of the two buttons.',
      },
      status: 400,
    });
  }
  if (note.length > MAX_NOTE) {
    return render(ctx, {
      ...keep,
      refusal: {
        code: 'invalid_value',
        reason: `A note is at most ${MAX_NOTE} characters; yours has ${note.length}.`,
        next: 'Shorten it (what fits is kept below).',
      },
      status: 400,
    });
  }
  try {
    await decide(ctx.deps, ctx.session.principal.handle, id, verdict, note.trim() ? note : null);
  } catch (err) {
    if (err instanceof AdminRefusal) return render(ctx, { ...keep, refusal: err.refusal, status: 409 });
    throw err;
  }
  redirect(ctx.res, `/console/decisions?done=${verdict === 'approve' ? 'approved' : 'denied'}`);
}

/**
 * A stale decision (its authority lapsed before approval) is never run by approving
 * it; the principal may do it in person as a new act, under what they may do now.
 * Asks first; the second post, with confirm=yes, runs it (the CLI's `decisions reissue`).
 */
export async function reissuePost(ctx: Authed): Promise<void> {
  const id = ctx.form.get('id') ?? '';
  const d = await ctx.deps.store.getDecision(id);
  if (!d || d.principalId !== ctx.session.principal.id || d.status !== 'stale') {
    return render(ctx, {
      refusal: {
        code: 'not_found',
        reason: 'That is not one of your stale decisions.',
        next: 'Pick one from the list.',
      },
      status: 404,
    });
  }
  if (ctx.form.get('confirm') !== 'yes') {
    const body = html`<p>Do this yourself, now, as a new act of yours? To ${wants(d)}, with:</p>
      ${request(d)} ${technical(html`Tool <code>${d.tool}</code>`)}
      <form method="post" action="/console/decisions/reissue">
        ${csrfField(ctx.session)}<input type="hidden" name="id" value="${d.id}" /><input
          type="hidden"
          name="confirm"
          value="yes"
        />
        <div class="actions">
          <button type="submit">Do it now</button> <a href="/console/decisions">Leave it</a>
        </div>
      </form>`;
    return sendPage(ctx, 'Do it yourself?', 'decisions', body);
  }
  let result;
  try {
    result = await reissue(ctx.deps, ctx.session.principal.handle, d.id);
  } catch (err) {
    if (err instanceof AdminRefusal) return render(ctx, { refusal: err.refusal, status: 409 });
    throw err;
  }
  if (result.kind === 'ok') return redirect(ctx.res, '/console/decisions?done=reissued');
  return render(ctx, {
    refusal:
      result.kind === 'refused'
        ? result.refusal
        : { code: 'not_found', reason: 'The club no longer offers this.', next: 'Nothing to do.' },
    status: 409,
  });
}
