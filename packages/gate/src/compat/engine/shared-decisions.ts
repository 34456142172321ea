import { definitionIndex } from '../definitions.ts';
import { parsePointer } from '../pointer.ts';
import type { Schema } from '../types.ts';
import type { Ctx, DecisionStore, RawFinding } from './context.ts';

/** Pairs kept for one run: past this, new pairs are decided as before, and not kept. */
const MAX_SHARED = 20_000;
/**
 * Findings kept for one run. A finding holds on to the walk that made it (its witness is built
 * from that walk's documents when it is replayed), so this bounds what the run keeps alive.
 */
const MAX_FINDINGS = 20_000;

/**
 * Decided pairs of whole definitions, kept across the comparisons of one run (the tools of a
 * manifest). The tools of one server, or the revisions of a specification, share most of their
 * definitions, and each comparison would otherwise walk every shared pair again.
 *
 * A definition is named by its content id (see definitions.ts): its name, its text, and the
 * names and texts of every definition it reaches, so one id means one schema whichever document
 * holds it. The walk keeps a pair here only when its findings depend on nothing else: not on an
 * assumption of an enclosing pair, nor on how deep the walk met it, nor on another decision that
 * did (see Memory.situated in context.ts). A pair met again is replayed, as within one walk.
 */
export class SharedDecisions implements DecisionStore {
  readonly #decided = new Map<string, readonly RawFinding[]>();
  #replayed = 0;
  #findings = 0;

  constructor(
    private readonly limit = MAX_SHARED,
    private readonly findingLimit = MAX_FINDINGS,
  ) {}

  get(key: string): readonly RawFinding[] | undefined {
    const found = this.#decided.get(key);
    if (found) this.#replayed++;
    return found;
  }

  /** Pairs kept. */
  get size(): number {
    return this.#decided.size;
  }

  /** Pairs found here rather than decided again. */
  get replayed(): number {
    return this.#replayed;
  }

  set(key: string, findings: readonly RawFinding[]): void {
    if (this.#decided.size >= this.limit || this.#findings + findings.length > this.findingLimit) return;
    this.#decided.set(key, findings);
    this.#findings += findings.length;
  }
}

/** The content id of the definition a pointer names as a whole (`/$defs/Name`), if the document has one. */
function definitionAt(root: Schema, pointer: string): string | undefined {
  if (typeof root !== 'object') return undefined;
  const tokens = parsePointer(pointer);
  if (tokens?.length !== 2) return undefined;
  const index = definitionIndex(root);
  if (!index || index.container !== tokens[0]) return undefined;
  return index.idOf(tokens[1] as string);
}

/** The content ids of two whole definitions the walk moved to, one per side; undefined for any other pair. */
export function definitionIds(subPtr: string, supPtr: string, ctx: Ctx): [string, string] | undefined {
  const subId = definitionAt(ctx.shared.sub.root, subPtr);
  if (subId === undefined) return undefined;
  const supId = definitionAt(ctx.shared.sup.root, supPtr);
  return supId === undefined ? undefined : [subId, supId];
}

/**
 * Whether two definitions are one schema: the same content id (the same text, reaching the same
 * definitions unchanged) read in the same dialect. Such a pair is included, with nothing to say.
 */
export function sameDefinition(ids: readonly [string, string], ctx: Ctx): boolean {
  return ids[0] === ids[1] && ctx.shared.sub.dialect === ctx.shared.sup.dialect;
}

/**
 * The key under which a pair of whole definitions is shared, from what its decision depends on:
 * the direction, the object policy, each side's dialect and each definition's content id.
 */
export function definitionPairKey(ids: readonly [string, string], ctx: Ctx): string {
  const { sub, sup } = ctx.shared;
  return `${ctx.direction} ${ctx.strict} ${sub.dialect} ${sup.dialect} ${ids[0]} ${ids[1]}`;
}
