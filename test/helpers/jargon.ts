// What a member must not have to read: a tool id, a refusal code or an HTTP status shown
// anywhere on a console page but inside a <details> disclosure (its <summary> counts as
// shown). Read from the page as the browser built it, so markup, entities and hidden
// elements are what a person gets.
import type { Page } from 'playwright-core';
import { REFUSALS } from '../../src/core/refusals/catalogue.ts';
import { buildRegistry } from '../../src/tools/index.ts';

/** Every tool id the club serves. */
export const TOOL_IDS: readonly string[] = buildRegistry()
  .all()
  .map((t) => t.spec.name);

/** Every refusal code of the catalogue. */
export const REFUSAL_CODES: readonly string[] = Object.keys(REFUSALS);

// Run in the page as written: a string, so the test's compiler adds nothing to it.
const FIND = `((lists) => {
  const found = [];
  const snake = new Set([...lists.tools, ...lists.codes.filter((c) => c.includes('_'))]);
  const single = new Set(lists.codes.filter((c) => !c.includes('_')));
  const STATUS = /\\bHTTP\\b|\\b(?:400|401|403|404|405|409|413|429|500|503)\\b/g;
  const hidden = (el) => {
    const d = el.closest('details');
    return d !== null && el.closest('summary') === null;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, noscript') || hidden(el)) continue;
    const text = n.textContent || '';
    for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) {
      if (snake.has(m[0])) found.push(m[0] + ' in “' + text.trim().slice(0, 80) + '”');
    }
    for (const m of text.matchAll(STATUS)) found.push(m[0] + ' in “' + text.trim().slice(0, 80) + '”');
    if (el.tagName === 'CODE' && single.has(text.trim())) found.push(text.trim() + ' (a code)');
  }
  return [...new Set(found)];
})`;

/** The tool ids, refusal codes and HTTP statuses a page shows outside <details>, each with where. */
export async function jargonOn(page: Page): Promise<string[]> {
  return page.evaluate(`${FIND}(${JSON.stringify({ tools: TOOL_IDS, codes: REFUSAL_CODES })})`);
}
