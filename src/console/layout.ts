import type { Refusal } from '../core/refusal.ts';
import { describeScope } from '../core/scope-descriptions.ts';
import { SCOPES } from '../core/scopes.ts';
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

/**
 * One scope as a checkbox, labelled by its name and what it lets an agent do (the one
 * table of scope descriptions), and what follows when given.
 */
export function scopeCheck(scope: string, checked: boolean, after?: Html | string): Html {
  const about = describeScope(scope);
  return html`<div class="check">
    <input
      type="checkbox"
      id="scope-${scope}"
      name="scope"
      value="${scope}"
      ${checked ? html` checked` : ''}
    /><label for="scope-${scope}"
      ><code>${scope}</code>${about ? html` <span class="about">${about}</span>` : ''}${
        after === undefined || after === '' ? '' : html` <span class="hint">(${after})</span>`
      }</label
    >
  </div>`;
}

/** Scopes as shown in a list or a table: their names, wrapping between names, never inside one. */
export function scopeNames(scopes: readonly string[], none = 'none'): Html {
  if (scopes.length === 0) return html`${none}`;
  return html`<span class="scopes"
    >${scopes.map((s, i) => html`${i ? ', ' : ''}<code class="scope">${s}</code>`)}</span
  >`;
}

/** What the scopes named on a page mean, folded away under the list that names them. */
export function scopeGlossary(scopes: readonly string[] = SCOPES): Html {
  return html`<details class="glossary">
    <summary>What each scope lets an agent do</summary>
    <dl class="facts">
      ${scopes.map(
        (s) =>
          html`<dt><code>${s}</code></dt>
            <dd>${describeScope(s) ?? 'Not a scope of this club: it grants nothing.'}</dd>`,
      )}
    </dl>
  </details>`;
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

/** A refusal as a person reads it: the reason, what to do next, and the stable code for support. */
export function refusalBox(r: Refusal): Html {
  return html`<div class="refusal" role="alert">
    <p><strong>Not done.</strong> ${r.reason}</p>
    ${r.next ? html`<p>${r.next}</p>` : ''}
    <p class="code">Code: <code>${r.code}</code></p>
  </div>`;
}

/** A confirmation after a redirect; the text comes from a fixed table, never from the query. */
export function noticeBox(text: string | undefined): Html {
  return text ? html`<p class="notice" role="status">${text}</p>` : html``;
}
