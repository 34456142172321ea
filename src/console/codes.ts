import { REFUSALS, type RefusalCode } from '../core/refusals/catalogue.ts';
import { html, type Html } from './html.ts';

/** Each code in words once: a page repeats a few codes down its rows. */
const IN_WORDS = new Map<string, Html>();

/**
 * A refusal code for the person reading the console: the refusal catalogue's line for it,
 * the code itself beside it. An agent reads a refusal's reason, written to it; a person
 * reads this. A code the catalogue does not know is shown as it is.
 */
export function codeInWords(code: string | null): Html {
  if (code === null) return html``;
  let said = IN_WORDS.get(code);
  if (said === undefined) {
    const doc = Object.hasOwn(REFUSALS, code) ? REFUSALS[code as RefusalCode].doc : null;
    said = html`${doc ?? ''} <span class="hint">(<code>${code}</code>)</span>`;
    // The catalogue's codes, and the odd one a stored row holds (bounded all the same).
    if (IN_WORDS.size < 500) IN_WORDS.set(code, said);
  }
  return said;
}
