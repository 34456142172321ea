import { ruleVerdict, type RuleId } from '../rules.ts';
import type { Direction, Finding, Json, Schema } from '../types.ts';
import type { Dialect } from '../validator.ts';
import { appendPointer, type Segment } from '../pointer.ts';
import type { Step } from '../generate/embed.ts';

/** Args without the absent ones: a message then says "absent", never "null", for a missing field. */
function present(args: Record<string, Json | undefined>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined) out[k] = v;
  return out;
}

/** An instance step into a container; `named` when the keyword path names the key itself. */
function stepInto(node: Schema, path: readonly (string | number)[], seg: string | number): Step {
  return path[0] === 'properties' ? { node, seg, named: true } : { node, seg };
}

/** A finding before witness verification: it still knows where in an instance it applies. */
export interface RawFinding extends Finding {
  trail: readonly Step[];
  /** A value at that place which the kept side accepts and the other rejects. */
  local?: () => Json | undefined;
  /** More values at that place, tried in turn when `local`'s is not confirmed. */
  more?: () => Iterable<Json | undefined>;
  /** Whether `pointer` is relative to the start of the pair being decided (no $ref followed on the new side yet). */
  rel?: boolean;
}

/** What a decided pair left behind, replayed wherever the same pair is met again. */
interface Decided {
  findings: readonly RawFinding[];
  /** Whether it depends on the two subschemas alone (see Memory.situated), so another walk may reuse it. */
  exact: boolean;
}

/**
 * Decisions another walk may replay: pairs of whole definitions, named by content, whose
 * findings depend on nothing but the two definitions and the walk's settings (see
 * shared-decisions.ts, which keeps them for the comparisons of one manifest).
 */
export interface DecisionStore {
  get(key: string): readonly RawFinding[] | undefined;
  set(key: string, findings: readonly RawFinding[]): void;
}

/**
 * Memory of the inclusion walk: pairs decided once (keyed by the whole subschemas on each side),
 * the pairs being decided now (the co-inductive assumptions), and the work budget.
 */
interface Memory {
  done: Map<string, Decided>;
  /** Pair key → position on the stack of pairs being decided. */
  active: Map<string, number>;
  /** Lowest stack position an assumption was used from, in the pair being decided now. */
  low: number;
  /** A number per distinct subschema text (see idOf in includes.ts). */
  ids: Map<string, number>;
  /** The same numbers by object identity, so each node is numbered once. */
  interned: WeakMap<object, number>;
  steps: number;
  budget: number;
  exhausted: boolean;
  /**
   * How many times a decision so far depended on where it was made rather than on the pair
   * alone: a depth limit reached, or an inexact decision replayed. A pair decided while this
   * stayed still (and on no assumption) is exact.
   */
  situated: number;
}

interface Side {
  root: Schema;
  dialect: Dialect;
}

/**
 * The recursive step of the walk: records in `ctx` how `sub` fails to be included in `sup`.
 * includes.ts supplies it when a walk starts, and every keyword's comparison calls it through
 * `ctx.include`, so no keyword file imports the dispatcher that imports it.
 */
type Include = (sub: Schema, sup: Schema, ctx: Ctx) => void;

interface Shared {
  /** The walk itself, for the subschemas of a keyword (see Include). */
  include: Include;
  direction: Direction;
  strict: boolean;
  /** The side whose values must stay valid: old for input, new for output. */
  sub: Side;
  /** The side that must accept them: new for input, old for output. */
  sup: Side;
  memory: Memory;
  /** Memo: whether both documents are equal, so equal subtrees with $ref stay equal. */
  sameRoots?: boolean;
  /** Exact decisions of whole definitions, shared with other walks (the other tools of a manifest). */
  decided?: DecisionStore;
}

/**
 * Keywords of a node that the walk reads under another name (a rewritten `unevaluatedProperties`
 * read as `additionalProperties`, a draft-07 `dependencies` read as `dependentRequired`), per
 * side: decided name → name in the document, so pointers lead to what the schema really says.
 */
/**
 * Keyword names as a rewrite spelled them → the names the schema uses. A key of two segments
 * (keyword, name) joined by PATH_ALIAS maps to a whole path, its segments joined the same way.
 * A path that starts with PLACE_IN_DOCUMENT is a JSON Pointer into the document instead (a
 * keyword folded into the node from the target of a reference, see flattenAllOf).
 */
export type Aliases = Readonly<Record<string, string>>;
/** Joins the segments of a path alias; no keyword or array index holds it. */
export const PATH_ALIAS = '\u0000';
/** Starts an alias that is a place in the document, not a path from the node. */
export const PLACE_IN_DOCUMENT = '#';
interface SideAliases {
  sub: Aliases;
  sup: Aliases;
}
const NO_ALIASES: SideAliases = { sub: {}, sup: {} };

/** A keyword path below a node's pointer, as the document spells it: its pointer, and whether an alias moved it out of the pair. */
function spelled(
  base: string,
  path: readonly Segment[],
  aliases: Aliases,
): { pointer: string; moved: boolean } {
  const first = path[0];
  let alias: string | undefined;
  let rest = path.slice(1);
  // A name declared on a node only by a rewrite (see unevaluated.ts) points where it is declared.
  if (typeof first === 'string' && path.length >= 2) {
    alias = aliases[`${first}${PATH_ALIAS}${String(path[1])}`];
    if (alias !== undefined) rest = path.slice(2);
  }
  if (
    alias === undefined &&
    typeof first === 'string' &&
    Object.prototype.hasOwnProperty.call(aliases, first)
  )
    alias = aliases[first];
  if (alias === undefined) return { pointer: appendPointer(base, ...path), moved: false };
  if (alias.startsWith(PLACE_IN_DOCUMENT))
    return { pointer: appendPointer(alias.slice(PLACE_IN_DOCUMENT.length), ...rest), moved: true };
  const segments = alias.split(PATH_ALIAS).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  return { pointer: appendPointer(base, ...segments, ...rest), moved: false };
}

/**
 * Steps of the walk (a keyword descended, a pair entered) before it gives up. A schema is at most
 * 256 levels deep (bounds.ts, checked before any walk) and a level costs the walk about two
 * steps, so only a walk that keeps following references can reach this.
 */
export const MAX_DEPTH = 600;
/** Pairs of subschemas compared before the verdict becomes unknown: a bound on work, not on time. */
const DEFAULT_BUDGET = 20_000;

/**
 * Walk state for `includes(sub, sup)`: which side is which, where we are in both documents,
 * and the findings so far. Rule ids are always named old → new, whatever the direction.
 */
export class Ctx {
  constructor(
    readonly shared: Shared,
    readonly findings: RawFinding[],
    readonly subPtr: string,
    readonly supPtr: string,
    readonly trail: readonly Step[],
    readonly depth: number,
    /** Whether the new side's pointer is relative to the pair being decided (see RawFinding.rel). */
    readonly rel = true,
    /** Keywords of the node being decided that were read under another name (see Aliases). */
    readonly aliases: SideAliases = NO_ALIASES,
  ) {}

  /** This node's context, with keywords that were read under another name mapped back for pointers. */
  withAliases(sub: Aliases, sup: Aliases): Ctx {
    if (Object.keys(sub).length === 0 && Object.keys(sup).length === 0) return this;
    return new Ctx(this.shared, this.findings, this.subPtr, this.supPtr, this.trail, this.depth, this.rel, {
      sub,
      sup,
    });
  }

  static root(shared: Omit<Shared, 'memory'>, budget = DEFAULT_BUDGET): Ctx {
    const memory: Memory = {
      done: new Map(),
      active: new Map(),
      low: Infinity,
      ids: new Map(),
      interned: new WeakMap(),
      steps: 0,
      budget,
      exhausted: false,
      situated: 0,
    };
    return new Ctx({ ...shared, memory }, [], '', '', [], 0);
  }

  /** Decides, at this place, whether `sub` is included in `sup` (the walk's recursion, see Include). */
  include(sub: Schema, sup: Schema): void {
    this.shared.include(sub, sup, this);
  }

  /** A fresh frame for deciding one pair; the new side's pointer restarts unless a $ref moved it. */
  frame(subPtr: string, supPtr: string, subMoved: boolean, supMoved: boolean): Ctx {
    const newMoved = this.input ? supMoved : subMoved;
    return new Ctx(
      this.shared,
      [],
      subMoved ? subPtr : '',
      supMoved ? supPtr : '',
      [],
      this.depth + 1,
      !newMoved,
    );
  }

  /** Replays the findings of a decided pair here: relative pointers and trails are rebased. */
  replay(found: readonly RawFinding[]): void {
    for (const f of found) {
      this.findings.push({
        ...f,
        pointer: f.rel ? this.newPointer + f.pointer : f.pointer,
        rel: f.rel ? this.rel : false,
        trail: this.trail.length === 0 ? f.trail : [...this.trail, ...f.trail],
      });
    }
  }

  get direction(): Direction {
    return this.shared.direction;
  }
  get strict(): boolean {
    return this.shared.strict;
  }
  get input(): boolean {
    return this.shared.direction === 'input';
  }

  /** Pointer into the new schema (for input that is sup, for output sub). */
  get newPointer(): string {
    return this.input ? this.supPtr : this.subPtr;
  }

  /** Descends into a keyword path, with an instance step when the keyword holds a container's member. */
  child(path: (string | number)[], subNode: Schema, seg?: string | number): Ctx {
    return this.childSides(path, path, subNode, seg);
  }

  /** Descends along different keyword paths on each side (e.g. into a branch of the sub side only). */
  childSides(
    subPath: (string | number)[],
    supPath: (string | number)[],
    subNode: Schema,
    seg?: string | number,
  ): Ctx {
    const trail = seg === undefined ? this.trail : [...this.trail, stepInto(subNode, subPath, seg)];
    const sub = spelled(this.subPtr, subPath, this.aliases.sub);
    const sup = spelled(this.supPtr, supPath, this.aliases.sup);
    // Moved into the document by an alias, the new side's pointer is no longer relative to the pair.
    const moved = this.input ? sup.moved : sub.moved;
    return new Ctx(
      this.shared,
      this.findings,
      sub.pointer,
      sup.pointer,
      trail,
      this.depth + 1,
      this.rel && !moved,
    );
  }

  /** A scratch context whose findings are kept apart, to try whether one schema includes another. */
  trial(): Ctx {
    return new Ctx(this.shared, [], this.subPtr, this.supPtr, this.trail, this.depth, this.rel, this.aliases);
  }

  /** A trial whose findings' trails start here, so their values can be embedded at this node. */
  scratch(): Ctx {
    return new Ctx(this.shared, [], this.subPtr, this.supPtr, [], this.depth, this.rel, this.aliases);
  }

  /** Keeps the findings of a trial that was chosen. */
  adopt(trial: Ctx): void {
    for (const f of trial.findings) this.findings.push(f);
  }

  /** Of a place given on each side, the one in the new schema (where pointers lead). */
  onNew(subPath: readonly Segment[], supPath: readonly Segment[]): readonly Segment[] {
    return this.input ? supPath : subPath;
  }

  /** Orders a (sub, sup) pair as (old, new). */
  oldNew<T>(subValue: T, supValue: T): { old: T; new: T } {
    return this.input ? { old: subValue, new: supValue } : { old: supValue, new: subValue };
  }

  /** Picks the old → new rule id for a change seen as (sub, sup). */
  id(inputId: RuleId, outputId: RuleId): RuleId {
    return this.input ? inputId : outputId;
  }

  /**
   * The path of one member of a keyword on the new side (a name in `required`): the member where
   * a fold placed it (it came from an allOf branch, see flattenAllOf), else the keyword.
   */
  member(keyword: string, name: string): Segment[] {
    const aliases = this.input ? this.aliases.sup : this.aliases.sub;
    return Object.hasOwn(aliases, `${keyword}${PATH_ALIAS}${name}`) ? [keyword, name] : [keyword];
  }

  /** Records a finding at `path` (keyword segments, escaped here) below the new side's pointer. */
  emit(
    rule: RuleId,
    path: readonly Segment[],
    args: Record<string, Json | undefined>,
    local?: () => Json | undefined,
    more?: () => Iterable<Json | undefined>,
  ): void {
    const at = spelled(this.newPointer, path, this.input ? this.aliases.sup : this.aliases.sub);
    this.findings.push({
      rule,
      verdict: ruleVerdict(rule, this.direction, this.strict),
      pointer: at.pointer,
      args: present(args),
      trail: this.trail,
      local,
      ...(more ? { more } : {}),
      rel: this.rel && !at.moved,
    });
  }

  /**
   * Counts `steps` of work against the budget; false once it is spent, and the verdict is then
   * budget-exhausted. A pair of subschemas is one step; other work is charged in proportion.
   */
  spend(steps = 1): boolean {
    const mem = this.shared.memory;
    if (mem.exhausted) return false;
    mem.steps += steps;
    if (mem.steps <= mem.budget) return true;
    mem.exhausted = true;
    return false;
  }

  /**
   * Notes that what is being decided depends on where the walk met it (how deep it is, say),
   * not only on the two subschemas: the decisions under way are then not kept for another walk.
   */
  situate(): void {
    this.shared.memory.situated++;
  }

  /** Whether any finding so far fails inclusion (breaking or unknown). */
  failed(): boolean {
    return this.findings.some((f) => f.verdict !== 'compatible');
  }
}
