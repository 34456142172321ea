import { evidenceTable } from '../evidence-table.ts';
import { when } from '../dates.ts';
import { html } from '../html.ts';
import { timePage } from '../paging.ts';
import type { Authed } from '../context.ts';
import { sendPage } from '../respond.ts';

const EVIDENCE_SHOWN = 30;
const QUESTIONS_SHOWN = 10;

/** Read-only pages of what the principal's agents wrote and received: evidence, consultations. */

export async function evidencePage(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const { shown: items, nav } = await timePage(ctx, {
    key: 'before',
    size: EVIDENCE_SHOWN,
    what: 'items, latest first',
    read: (page) => ctx.deps.store.pageEvidence(me.id, page),
    keyOf: (e) => ({ at: e.createdAt, id: e.id }),
  });
  const body = html`<p>
      What your agents filed as evidence of what you did. A claim from an artifact carries its reference.
    </p>
    ${nav} ${evidenceTable(items, ctx.now, 'No evidence filed yet.')}`;
  await sendPage(ctx, 'Evidence', 'evidence', body);
}

/** One side of the consultations page: a keyset page of questions and the table that shows them. */
async function questionSection(
  ctx: Authed,
  side: {
    key: 'asked' | 'received';
    title: string;
    filter: { askerId: string } | { targetId: string };
    who: 'To' | 'From';
    answer: string;
  },
) {
  const unanswered = html`<span class="hint">—</span>`;
  const { shown, nav } = await timePage(ctx, {
    key: side.key,
    size: QUESTIONS_SHOWN,
    what: `questions ${side.key}, latest first`,
    read: (page) => ctx.deps.store.pageQuestions(side.filter, page),
    keyOf: (q) => ({ at: q.askedAt, id: q.id }),
  });
  return html`<section aria-labelledby="${side.key}">
    <h2 id="${side.key}">${side.title}</h2>
    ${nav}
    ${
      shown.length === 0
        ? html`<p>None.</p>`
        : html`<div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">${side.who}</th>
                  <th scope="col">Asked</th>
                  <th scope="col">Question</th>
                  <th scope="col">Status</th>
                  <th scope="col">${side.answer}</th>
                </tr>
              </thead>
              <tbody>
                ${shown.map(
                  (q) =>
                    html`<tr>
                      <th scope="row">@${side.who === 'To' ? q.targetHandle : q.askerHandle}</th>
                      <td data-label="Asked">${when(q.askedAt, ctx.now)}</td>
                      <td data-label="Question" class="member-text">${q.question}</td>
                      <td data-label="Status">
                        ${
                          q.answeredAt
                            ? html`<span class="tag">answered</span> ${when(q.answeredAt, ctx.now)}`
                            : html`<span class="tag">waiting for an answer</span>`
                        }
                      </td>
                      <td data-label="${side.answer}" class="member-text">${q.answer ?? unanswered}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

export async function consultationsPage(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const asked = await questionSection(ctx, {
    key: 'asked',
    title: 'Asked by your agents',
    filter: { askerId: me.id },
    who: 'To',
    answer: 'Answer',
  });
  const received = await questionSection(ctx, {
    key: 'received',
    title: 'Put to you',
    filter: { targetId: me.id },
    who: 'From',
    answer: "Your agent's answer",
  });
  const intro = html`<p>
    A consultation is a question one member's agent puts to another's. Your agents ask within your
    <a href="/console/mandate">mandate</a> (whom they may ask, and how often, without you); a question outside
    it waits for you under <a href="/console/decisions">Decisions</a>. Questions put to you are answered by
    your agent if its token has the permission “Your inbox”.
  </p>`;
  await sendPage(ctx, 'Consultations', 'consultations', html`${intro}${asked}${received}`);
}
