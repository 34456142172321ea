/**
 * Inclusion of two regular expressions of a simple shape, as the validator runs them (`new
 * RegExp(p, 'u')`, `test`): anchors at the ends only, literals, `.`, character classes and the
 * escapes \d \w \s (and their negations), each with a quantifier; no groups, alternation,
 * look-arounds or back-references. Such a regex is a sequence of slots, so both are read as
 * automata over the intervals of code points they tell apart, and the two are walked together
 * breadth first: either every string the first matches, the second matches too, or the walk
 * reaches a shortest string the first matches and the second does not. The work is bounded:
 * past it, or for any other shape, nothing is decided.
 */

const MAX_CODE_POINT = 0x10ffff;
/** Slots one regex may expand to (`a{1,100}` is 100 slots). */
const MAX_SLOTS = 120;
/** Transitions computed over one comparison before it gives up. */
const MAX_WORK = 400_000;

/** Sorted, disjoint, inclusive ranges of code points. */
type CharSet = [number, number][];

interface Slot {
  set: CharSet;
  /** May be skipped. */
  optional: boolean;
  /** May repeat (then it is also optional). */
  repeat: boolean;
}

const ANY: CharSet = [[0, MAX_CODE_POINT]];
const DIGIT: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// What JavaScript's \s matches: WhiteSpace and LineTerminator.
const SPACE: CharSet = normalise([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
// `.` without the s flag: everything but line terminators.
const DOT: CharSet = complement(
  normalise([
    [0x0a, 0x0a],
    [0x0d, 0x0d],
    [0x2028, 0x2029],
  ]),
);
const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };
/** Characters a `u` regex lets be escaped to stand for themselves. */
const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);

function normalise(ranges: CharSet): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: CharSet = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(set: CharSet): CharSet {
  const out: CharSet = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function has(set: CharSet, c: number): boolean {
  for (const [lo, hi] of set) if (c >= lo && c <= hi) return true;
  return false;
}

/** A class escape (\d, \W…) as a set, or undefined for any other letter. */
function classEscape(c: string): CharSet | undefined {
  switch (c) {
    case 'd':
      return DIGIT;
    case 'D':
      return complement(DIGIT);
    case 'w':
      return WORD;
    case 'W':
      return complement(WORD);
    case 's':
      return SPACE;
    case 'S':
      return complement(SPACE);
    default:
      return undefined;
  }
}

/** The one code point an escape (after the backslash) stands for, or undefined when it is no such escape. */
function charEscape(c: string, inClass: boolean): number | undefined {
  if (Object.hasOwn(CONTROL_ESCAPES, c)) return CONTROL_ESCAPES[c];
  if (SYNTAX.has(c) || (inClass && c === '-')) return c.codePointAt(0);
  return undefined;
}

class Reader {
  private i = 0;
  private readonly chars: string[];
  constructor(source: string) {
    this.chars = [...source];
  }
  get done(): boolean {
    return this.i >= this.chars.length;
  }
  get rest(): number {
    return this.chars.length - this.i;
  }
  peek(k = 0): string | undefined {
    return this.chars[this.i + k];
  }
  next(): string | undefined {
    return this.chars[this.i++];
  }
}

/** A character class after its `[`, as a set; undefined for a shape not read. */
function readClass(r: Reader): CharSet | undefined {
  const negated = r.peek() === '^';
  if (negated) r.next();
  const ranges: CharSet = [];
  // One member: a code point, or a class escape (which cannot end a range).
  const member = (): { point: number } | { set: CharSet } | undefined => {
    const c = r.next();
    if (c === undefined) return undefined;
    if (c !== '\\') return { point: c.codePointAt(0) as number };
    const e = r.next();
    if (e === undefined) return undefined;
    const set = classEscape(e);
    if (set) return { set };
    const point = charEscape(e, true);
    return point === undefined ? undefined : { point };
  };
  for (;;) {
    if (r.done) return undefined;
    if (r.peek() === ']') {
      r.next();
      break;
    }
    const first = member();
    if (!first) return undefined;
    if ('set' in first) {
      ranges.push(...first.set);
      continue;
    }
    if (r.peek() === '-' && r.peek(1) !== ']' && r.peek(1) !== undefined) {
      r.next();
      const last = member();
      if (!last || 'set' in last || last.point < first.point) return undefined;
      ranges.push([first.point, last.point]);
    } else ranges.push([first.point, first.point]);
  }
  const set = normalise(ranges);
  return negated ? complement(set) : set;
}

/** A quantifier after an atom, as [min, max]; [1, 1] when there is none; undefined when malformed. */
function readQuantifier(r: Reader): [number, number] | undefined {
  const c = r.peek();
  let q: [number, number];
  if (c === '*') q = [0, Infinity];
  else if (c === '+') q = [1, Infinity];
  else if (c === '?') q = [0, 1];
  else if (c === '{') {
    let text = '';
    for (let k = 1; r.peek(k) !== undefined && r.peek(k) !== '}'; k++) text += r.peek(k);
    const m = /^(\d{1,4})(,(\d{0,4}))?$/.exec(text);
    if (!m || r.peek(text.length + 1) !== '}') return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (max < min) return undefined;
    for (let k = 0; k < text.length + 1; k++) r.next();
    q = [min, max];
  } else return [1, 1];
  r.next();
  if (r.peek() === '?') r.next(); // lazy: matches the same strings
  return q;
}

/** A regex of the simple shape as slots, anchors made explicit; undefined for any other shape. */
function slotsOf(source: string): Slot[] | undefined {
  const r = new Reader(source);
  const slots: Slot[] = [];
  const anchoredStart = r.peek() === '^';
  if (anchoredStart) r.next();
  let anchoredEnd = false;
  if (!anchoredStart) slots.push({ set: ANY, optional: true, repeat: true });
  while (!r.done) {
    const c = r.next() as string;
    let set: CharSet | undefined;
    if (c === '$' && r.done) {
      anchoredEnd = true;
      break;
    } else if (c === '.') set = DOT;
    else if (c === '[') set = readClass(r);
    else if (c === '\\') {
      const e = r.next();
      if (e === undefined) return undefined;
      set = classEscape(e);
      if (!set) {
        const point = charEscape(e, false);
        if (point === undefined) return undefined;
        set = [[point, point]];
      }
    } else if ('^$()|*+?{}]'.includes(c)) return undefined;
    else {
      const point = c.codePointAt(0) as number;
      set = [[point, point]];
    }
    if (!set) return undefined;
    const q = readQuantifier(r);
    if (!q) return undefined;
    const [min, max] = q;
    for (let k = 0; k < min; k++) slots.push({ set, optional: false, repeat: false });
    if (max === Infinity) slots.push({ set, optional: true, repeat: true });
    else for (let k = min; k < max; k++) slots.push({ set, optional: true, repeat: false });
    if (slots.length > MAX_SLOTS) return undefined;
  }
  if (!anchoredEnd) slots.push({ set: ANY, optional: true, repeat: true });
  return slots;
}

/** The positions reachable from these without reading a character (skipping optional slots). */
function closure(slots: readonly Slot[], from: Iterable<number>): number[] {
  const out = new Set<number>();
  for (const start of from) {
    let i = start;
    out.add(i);
    while (i < slots.length && (slots[i] as Slot).optional) out.add(++i);
  }
  return [...out].sort((a, b) => a - b);
}

function step(slots: readonly Slot[], at: readonly number[], c: number): number[] {
  const next: number[] = [];
  for (const i of at) {
    const slot = slots[i];
    if (!slot || !has(slot.set, c)) continue;
    next.push(slot.repeat ? i : i + 1);
  }
  return closure(slots, next);
}

/** Intervals of code points no set of either regex tells apart, each with a code point that stands for it. */
function alphabet(sets: readonly CharSet[]): number[] {
  const cuts = new Set<number>([0]);
  for (const set of sets)
    for (const [lo, hi] of set) {
      cuts.add(lo);
      if (hi < MAX_CODE_POINT) cuts.add(hi + 1);
    }
  const starts = [...cuts].sort((a, b) => a - b);
  const preferred = [...'a0A_-. b1'].map((ch) => ch.codePointAt(0) as number);
  const points = starts.map((lo, k) => {
    const hi = (starts[k + 1] ?? MAX_CODE_POINT + 1) - 1;
    const nice = preferred.find((p) => p >= lo && p <= hi);
    if (nice !== undefined) return nice;
    // A lone surrogate is a code point to the regex but a poor witness: avoided where the interval allows.
    if (lo >= 0xd800 && lo <= 0xdfff && hi > 0xdfff) return 0xe000;
    return lo;
  });
  // Readable letters first, so the shortest witness found is also a readable one where it can be.
  const readable = (p: number): number => (preferred.includes(p) ? 0 : p >= 0x20 && p < 0x7f ? 1 : 2);
  return points.sort((p, q) => readable(p) - readable(q) || p - q);
}

/** What comparing two regexes showed. */
export type RegexInclusion = { included: true } | { included: false; witness: string };

/**
 * Whether every string `sub` matches, `sup` matches too; or a shortest string that `sub`
 * matches and `sup` does not. Undefined when either regex is of another shape, or the work
 * allowed ran out.
 */
export function regexInclusion(sub: string, sup: string): RegexInclusion | undefined {
  const a = slotsOf(sub),
    b = slotsOf(sup);
  if (!a || !b) return undefined;
  const letters = alphabet([...a, ...b].map((s) => s.set));
  const startA = closure(a, [0]),
    startB = closure(b, [0]);
  const key = (x: readonly number[], y: readonly number[]): string => `${x.join(',')}|${y.join(',')}`;
  const seen = new Map<string, { parent?: string; letter?: number }>([[key(startA, startB), {}]]);
  const queue: [number[], number[]][] = [[startA, startB]];
  let work = 0;
  for (let head = 0; head < queue.length; head++) {
    const [x, y] = queue[head] as [number[], number[]];
    const here = key(x, y);
    if (x.includes(a.length) && !y.includes(b.length)) {
      const points: number[] = [];
      for (let k: string | undefined = here; k !== undefined;) {
        const node = seen.get(k) as { parent?: string; letter?: number };
        if (node.letter !== undefined) points.push(node.letter);
        k = node.parent;
      }
      return { included: false, witness: String.fromCodePoint(...points.reverse()) };
    }
    for (const c of letters) {
      work += x.length + y.length + 1;
      if (work > MAX_WORK) return undefined;
      const nx = step(a, x, c);
      if (nx.length === 0) continue; // sub matches nothing from here
      const ny = step(b, y, c);
      const k = key(nx, ny);
      if (seen.has(k)) continue;
      seen.set(k, { parent: here, letter: c });
      queue.push([nx, ny]);
    }
  }
  return { included: true };
}
