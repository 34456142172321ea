import { forHumans, forPeople, type MemberText } from '../untrusted/index.ts';

// Assigned by the class's static block, which alone reaches the private field.
// Declared first so that block does not hit the temporal dead zone.
let make: (text: string) => Html;
let read: (h: Html) => string;

/**
 * HTML that is safe by construction. The only way to make an `Html` is the `html`
 * tag: its literal parts come from our source code, and every interpolated value is
 * escaped — plain strings, numbers and member text alike — unless it is already
 * `Html`; text also has its control, bidi and invisible characters made visible first,
 * so what a member or a client wrote reads on the page as it will be taken. `Html` is a class with an ES private field, so TypeScript treats it
 * nominally: a `string` (or a `MemberText`) is not assignable to it, and no page,
 * layout or response function accepts anything else. A raw member string therefore
 * cannot reach a page without passing through the escaper; that is a compile error,
 * not a review finding (test/console/html.test.ts proves it).
 */
export class Html {
  readonly #text: string;

  private constructor(text: string) {
    this.#text = text;
    Object.freeze(this);
  }

  static {
    make = (text) => new Html(text);
    read = (h) => h.#text;
  }
}

/** What may be interpolated: escaped unless it is Html already; null, undefined and false print nothing. */
export type Slot = Html | string | number | boolean | null | undefined | MemberText | readonly Slot[];

const ESCAPED = /[&<>"'`=]/;

/**
 * Escapes text for an HTML text node or a quoted attribute value. Most text has nothing to
 * escape and is returned as it is; otherwise it is copied once, a run at a time, each
 * character told apart by its code: what an agent sent is JSON, every quote of which is
 * escaped, and looking each character up as a one-letter string cost three times as much.
 */
function escapeText(text: string): string {
  const first = text.search(ESCAPED);
  if (first === -1) return text;
  let out = '';
  let from = 0;
  for (let i = first; i < text.length; i++) {
    let escaped: string;
    switch (text.charCodeAt(i)) {
      case 0x26:
        escaped = '&amp;';
        break;
      case 0x3c:
        escaped = '&lt;';
        break;
      case 0x3e:
        escaped = '&gt;';
        break;
      case 0x22:
        escaped = '&quot;';
        break;
      case 0x27:
        escaped = '&#39;';
        break;
      case 0x60:
        escaped = '&#96;';
        break;
      case 0x3d:
        escaped = '&#61;';
        break;
      default:
        continue;
    }
    if (from < i) out += text.slice(from, i);
    out += escaped;
    from = i + 1;
  }
  return from < text.length ? out + text.slice(from) : out;
}

// An interpolation right after one of these would be a URL, a style or a script:
// only Html (from url() or a literal) may go there, never text, however escaped.
const DANGEROUS_ATTRIBUTE = /(?:\s(?:href|src|action|formaction|style|srcset|on[a-z]+)\s*=\s*["']?)$/i;

/**
 * For each literal part of a template, whether a slot after it sits in a URL, style or
 * handler attribute. Literal parts are the same array at every call of one template, so
 * each is tested once, however many rows the template draws.
 */
const AFTER_DANGER = new WeakMap<TemplateStringsArray, boolean[]>();

/**
 * The flags of a template's literal parts; throws for a strings array that is not a
 * template literal's. That is checked once per array too: one that passed was frozen,
 * its raw parts beside it, and a frozen array stays as it is.
 */
function afterDanger(strings: TemplateStringsArray): boolean[] {
  let flags = AFTER_DANGER.get(strings);
  if (!flags) {
    if (!Array.isArray(strings.raw) || !Object.isFrozen(strings)) {
      throw new TypeError('html must be used as a tagged template literal');
    }
    flags = strings.map((s) => DANGEROUS_ATTRIBUTE.test(s));
    AFTER_DANGER.set(strings, flags);
  }
  return flags;
}

function slotText(value: Slot, dangerous: boolean): string {
  if (value instanceof Html) return read(value);
  if (Array.isArray(value)) {
    // Appended, not joined: join() copies a table's rows into one string, and the page is
    // copied again when it is encoded.
    let out = '';
    for (const v of value as readonly Slot[]) out += slotText(v, false);
    return out;
  }
  if (value === null || value === undefined || value === false) return '';
  if (dangerous) {
    throw new TypeError(
      'Only Html (e.g. from url()) may be interpolated into a URL, style or handler attribute',
    );
  }
  // A string may be a client's or a member's (a client id, a label, an operator's entry sent
  // back, a reason quoting it): made readable for a person, never cut, then escaped.
  if (typeof value === 'string') return escapeText(forPeople(value, Number.MAX_SAFE_INTEGER));
  if (typeof value === 'number' || value === true) return escapeText(String(value));
  // What remains is member text: the same for a person, cut at SLOT_MAX code points so a page
  // stays light however much was written, then escaped.
  return escapeText(forHumans(value as MemberText, SLOT_MAX));
}

/** Member text in a list or table is cut here (with "…"); `long()` shows up to the store's full 4000. */
export const SLOT_MAX = 300;

/** Member text shown at full length (a profile's bio). */
export function long(mt: MemberText): Html {
  return make(escapeText(forHumans(mt)));
}

/** The template tag. Refuses to be called with a forged (non-literal) strings array. */
export function html(strings: TemplateStringsArray, ...slots: Slot[]): Html {
  const dangerous = afterDanger(strings);
  let out = strings[0] ?? '';
  for (let i = 0; i < slots.length; i++) {
    out += slotText(slots[i] as Slot, dangerous[i] === true) + (strings[i + 1] ?? '');
  }
  return make(out);
}

/**
 * A console URL from fixed path segments and escaped parts: each part is
 * percent-encoded, so nothing can turn it into another scheme or path.
 */
export function url(path: `/console${string}`, query: Record<string, string> = {}): Html {
  const q = new URLSearchParams(query).toString();
  return make(escapeText(q ? `${path}?${q}` : path));
}

/** The document text, for the response; the only way out of Html. */
export function serialize(doc: Html): string {
  return read(doc);
}
