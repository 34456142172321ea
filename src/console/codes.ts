import { codeWords } from './glossary.ts';
import { html, type Html } from './html.ts';

/**
 * A refusal code for the member reading the console: what it meant for them and what
 * they can do, from the glossary, with the code itself folded away in a details
 * disclosure (or left to the caller, who folds it away with more). An agent reads a refusal's reason, written to it; a person reads this.
 */
export function codeInWords(code: string | null, withCode = true): Html {
  if (code === null) return html``;
  const w = codeWords(code);
  return html`${w.said} <span class="hint">${w.todo}</span>${
      withCode
        ? html` <details class="technical">
            <summary>Details</summary>
            Code <code>${code}</code>
          </details>`
        : ''
    }`;
}
