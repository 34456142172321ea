// Assigned by the class's static block, which alone can reach the private fields.
// Declared first so that block does not hit the temporal dead zone.
let create: (raw: string, author: string) => MemberText;
/** Proves a construction came from memberText(): TypeScript's `private` alone does not bind at run time. */
const SEAL: unique symbol = Symbol('member-text seal');
let read: (mt: MemberText) => { raw: string; author: string };

/**
 * Text a club member (or their agent) wrote, as it leaves the store.
 *
 * It is deliberately not a string: a class with ES private fields is nominal in
 * TypeScript and has no index signature, so it is not assignable to `string`, to a
 * JSON value type or to `UntrustedText`. Putting it into a tool result without
 * wrapping therefore does not compile, and the coercion hooks below make a template
 * literal or `JSON.stringify` of a raw one fail loudly at run time as well.
 */
export class MemberText {
  readonly #raw: string;
  readonly #author: string;

  private constructor(seal: typeof SEAL, raw: string, author: string) {
    if (seal !== SEAL) throw new TypeError('MemberText is sealed by the store through memberText() only');
    this.#raw = raw;
    this.#author = author;
    Object.freeze(this);
  }

  static {
    create = (raw, author) => new MemberText(SEAL, raw, author);
    read = (mt) => ({ raw: mt.#raw, author: mt.#author });
  }

  /** Refuses coercion to a string: raw member text must be wrapped first. */
  toString(): never {
    throw unwrappedUse('converted to a string');
  }

  /** Refuses JSON serialisation: raw member text must be wrapped first. */
  toJSON(): never {
    throw unwrappedUse('serialised to JSON');
  }

  /** Refuses every primitive coercion (template literals, `+`, `String()`, comparisons). */
  [Symbol.toPrimitive](): never {
    throw unwrappedUse('coerced to a primitive');
  }
}

function unwrappedUse(what: string): TypeError {
  return new TypeError(`Raw member text cannot be ${what}; wrap it with a Wrapper from untrusted/ first.`);
}

/**
 * Seals text a member wrote. Only the store calls this, with the author handle taken
 * from the same row, so attribution never depends on anything inside the text.
 */
export function memberText(raw: string, author: string): MemberText {
  if (typeof raw !== 'string') throw new TypeError('memberText: raw must be a string');
  if (typeof author !== 'string' || author.length === 0) {
    throw new TypeError('memberText: author must be a non-empty handle from the store');
  }
  return create(raw, author);
}

/**
 * Opens a MemberText for the wrapper. Not re-exported from the module's index: the
 * wrapper is the only code that may see the raw text on its way to a reader.
 */
export function openForWrapping(mt: MemberText): { raw: string; author: string } {
  return read(mt);
}
