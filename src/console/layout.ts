import type { Refusal } from '../core/refusal.ts';
import { SCOPES } from '../core/scopes.ts';
import { actOf, scopeWords, technical } from './glossary.ts';
import { html, url, type Html } from './html.ts';
import type { SignedIn } from './session.ts';

export interface PageParts {
  title: string;
  /** The signed-in principal, for the navigation and the sign-out form; null on public pages. */
  session: SignedIn | null;
  /** Which navigation entry is current. */
  current?: string;
  body: Html;
  /** The pending decision count, shown in the navigation. */
  pending?: number;
}

const NAV: { key: string; label: string; href: Html; operator?: true }[] = [
  { key: 'overview', label: 'Overview', href: url('/console/') },
  { key: 'mandate', label: 'Mandate', href: url('/console/mandate') },
  { key: 'tokens', label: 'Tokens', href: url('/console/tokens') },
  { key: 'decisions', label: 'Decisions', href: url('/console/decisions') },
  { key: 'activity', label: 'Activity', href: url('/console/activity') },
  { key: 'profile', label: 'Profile', href: url('/console/profile') },
  { key: 'evidence', label: 'Evidence', href: url('/console/evidence') },
  { key: 'consultations', label: 'Consultations', href: url('/console/consultations') },
  { key: 'passkeys', label: 'Passkeys', href: url('/console/passkeys') },
  { key: 'operator', label: 'Operator', href: url('/console/operator'), operator: true },
];

/** The hidden CSRF field every state-changing form carries. */
export function csrfField(session: SignedIn): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrf}" />`;
}

/** What a permission lets an agent see and do, in a sentence. */
export function scopeSentence(scope: string): string {
  const w = scopeWords(scope);
  if (!w) return 'Not a permission of this club: it grants nothing.';
  const parts = [w.see, w.do].filter((x): x is string => x !== null);
  return `Can ${parts.join(', and ')}.`;
}

/**
 * One permission (scope) as a checkbox: its name in words, what it lets an agent see and
 * do, marked when it acts in the member's name, and what follows when given.
 */
export function scopeCheck(scope: string, checked: boolean, after?: Html | string): Html {
  const w = scopeWords(scope);
  return html`<div class="check">
    <input
      type="checkbox"
      id="scope-${scope}"
      name="scope"
      value="${scope}"
      ${checked ? html` checked` : ''}
    /><label for="scope-${scope}"
      ><strong>${w?.name ?? scope}</strong> <code class="scope">${scope}</code>${
        w?.risky ? html` <span class="tag risky">acts in your name</span>` : ''
      } <span class="about">${scopeSentence(scope)}</span>${
        after === undefined || after === '' ? '' : html` <span class="hint">(${after})</span>`
      }</label
    >
  </div>`;
}

/** Permissions as shown in a list or a table: their names in words, wrapping between names, never inside one. */
export function scopeNames(scopes: readonly string[], none = 'none'): Html {
  if (scopes.length === 0) return html`${none}`;
  return html`<span class="scopes"
    >${scopes.map(
      (s, i) => html`${i ? ', ' : ''}<span class="scope" title="${s}">${scopeWords(s)?.name ?? s}</span>`,
    )}</span
  >`;
}

/** What the permissions named on a page mean, folded away under the list that names them. */
export function scopeGlossary(scopes: readonly string[] = SCOPES): Html {
  return html`<details class="glossary">
    <summary>What each permission lets an agent see and do</summary>
    <dl class="facts">
      ${scopes.map(
        (s) =>
          html`<dt>${scopeWords(s)?.name ?? s} <code class="scope">${s}</code></dt>
            <dd>${scopeSentence(s)}</dd>`,
      )}
    </dl>
  </details>`;
}

/** Tools as the acts they let an agent do, in words, the ids under Details; "—" for none. */
export function actsInWords(tools: readonly string[]): Html {
  if (tools.length === 0) return html`—`;
  return html`${tools.map((t) => actOf(t)?.can ?? 'something the club no longer describes').join('; ')}
  ${technical(html`${tools.join(', ')}`)}`;
}

/**
 * What a token (or a connection) would let an agent see and do, in words: the acts of the
 * tools it would see, as the glossary names them, split into seeing and acting.
 */
export function canSeeAndDo(tools: readonly string[]): Html {
  const acts = tools.map((t) => ({ t, a: actOf(t) }));
  const see = acts.filter((x) => x.a?.kind === 'see');
  const act = acts.filter((x) => x.a?.kind !== 'see');
  const list = (xs: typeof acts) =>
    html`<ul class="acts">
      ${xs.map((x) => html`<li>${x.a?.can ?? 'use a tool the club no longer describes'}</li>`)}
    </ul>`;
  return html`<div class="see-do">
    <div>
      <p class="see"><strong>It could see</strong></p>
      ${see.length ? list(see) : html`<p>Nothing.</p>`}
    </div>
    <div>
      <p class="do"><strong>It could do, in your name</strong></p>
      ${act.length ? list(act) : html`<p>Nothing: it could only look.</p>`}
    </div>
  </div>`;
}

/** One page: semantic landmarks, a skip link, the navigation, no inline script or style. */
export function layout(p: PageParts): Html {
  const nav = p.session
    ? html`<nav aria-label="Console">
        <ul>
          ${NAV.filter((n) => !n.operator || p.session!.principal.operator).map(
            (n) =>
              html`<li>
                <a href="${n.href}" ${n.key === p.current ? html` aria-current="page"` : ''}
                  >${n.label}${
                    n.key === 'decisions' && p.pending ? html` <span class="count">${p.pending}</span>` : ''
                  }</a
                >
              </li>`,
          )}
        </ul>
        <form method="post" action="/console/signout" class="signout">
          ${csrfField(p.session)}<button type="submit">Sign out @${p.session.principal.handle}</button>
        </form>
      </nav>`
    : '';
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${p.title} · Warden console</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/local-time.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <p class="brand">Warden console</p>
          ${nav}
        </header>
        <main id="main">
          <h1>${p.title}</h1>
          ${p.body}
        </main>
      </body>
    </html> `;
}

/** A refusal as a person reads it: the reason, what to do next, and the stable code (folded away) for support. */
export function refusalBox(r: Refusal): Html {
  return html`<div class="refusal" role="alert">
    <p><strong>Not done.</strong> ${r.reason}</p>
    ${r.next ? html`<p>${r.next}</p>` : ''}
    <details class="technical code">
      <summary>Details</summary>
      Code <code>${r.code}</code>, for the club's operator
    </details>
  </div>`;
}

/** A confirmation after a redirect; the text comes from a fixed table, never from the query. */
export function noticeBox(text: string | undefined): Html {
  return text ? html`<p class="notice" role="status">${text}</p>` : html``;
}
