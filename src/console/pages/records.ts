import { html, long } from '../html.ts';
import { timePage } from '../paging.ts';
import type { Authed } from '../context.ts';
import { sendPage } from '../respond.ts';

const EVIDENCE_SHOWN = 30;
const QUESTIONS_SHOWN = 10;

/** Read-only pages of what the principal's agents wrote and received: profile, evidence, consultations. */

export async function profilePage(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const body = html`<p>
      Your public profile, as other members' agents read it. Your agents edit it with
      <code>update_profile</code>.
    </p>
    <dl class="facts">
      <dt>Handle</dt>
      <dd>@${me.handle}</dd>
      <dt>Name</dt>
      <dd class="member-text">${me.displayName}</dd>
      <dt>Headline</dt>
      <dd class="member-text">${me.headline}</dd>
      <dt>Bio</dt>
      <dd class="member-text">${long(me.bio)}</dd>
      <dt>Accepts questions</dt>
      <dd>${me.acceptsQuestions ? 'yes' : 'no'}</dd>
      <dt>Member since</dt>
      <dd>${me.createdAt}</dd>
    </dl>`;
  await sendPage(ctx, 'Profile', 'profile', body);
}

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
    ${nav}
    ${
      items.length === 0
        ? html`<p>No evidence filed yet.</p>`
        : html`<div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Filed</th>
                  <th scope="col">Origin</th>
                  <th scope="col">Claim</th>
                  <th scope="col">Artifact</th>
                </tr>
              </thead>
              <tbody>
                ${items.map(
                  (e) =>
                    html`<tr>
                      <td>${e.createdAt.slice(0, 16).replace('T', ' ')}</td>
                      <td>${e.origin}</td>
                      <td class="member-text">${e.claim}</td>
                      <td><code>${e.artifactRef ?? '—'}</code></td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
  await sendPage(ctx, 'Evidence', 'evidence', body);
}

export async function consultationsPage(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const questions = (key: string, filter: { askerId: string } | { targetId: string }, what: string) =>
    timePage(ctx, {
      key,
      size: QUESTIONS_SHOWN,
      what,
      read: (page) => ctx.deps.store.pageQuestions(filter, page),
      keyOf: (q) => ({ at: q.askedAt, id: q.id }),
    });
  const a = await questions('asked', { askerId: me.id }, 'questions asked, latest first');
  const r = await questions('received', { targetId: me.id }, 'questions received, latest first');
  const asked = a.shown;
  const received = r.shown;
  const body = html`<section aria-labelledby="asked">
      <h2 id="asked">Asked by your agents</h2>
      ${a.nav}
      ${
        asked.length === 0
          ? html`<p>None.</p>`
          : html`<div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">To</th>
                    <th scope="col">Question</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  ${asked.map(
                    (q) =>
                      html`<tr>
                        <th scope="row">@${q.targetHandle}</th>
                        <td class="member-text">${q.question}</td>
                        <td class="member-text">${q.answer ?? html`<em>not answered yet</em>`}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>
    <section aria-labelledby="received">
      <h2 id="received">Put to you</h2>
      ${r.nav}
      ${
        received.length === 0
          ? html`<p>None.</p>`
          : html`<div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">From</th>
                    <th scope="col">Question</th>
                    <th scope="col">Your agent's answer</th>
                  </tr>
                </thead>
                <tbody>
                  ${received.map(
                    (q) =>
                      html`<tr>
                        <th scope="row">@${q.askerHandle}</th>
                        <td class="member-text">${q.question}</td>
                        <td class="member-text">${q.answer ?? html`<em>not answered yet</em>`}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>`;
  await sendPage(ctx, 'Consultations', 'consultations', body);
}
