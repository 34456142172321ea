import { isObject, withoutKeys } from '../generate/merge.ts';
import { canonicalJson, sameJson } from '../hash.ts';
import { appendPointer } from '../pointer.ts';
import { ANNOTATIONS } from '../keywords.ts';
import { setMember } from '../own.ts';
import { ruleVerdict } from '../rules.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import { PATH_ALIAS, PLACE_IN_DOCUMENT, type Ctx } from './context.ts';
import { keepsAdjacency } from './adjacent.ts';
import { branchIndex } from './branch-index.ts';
import { foldBranch } from './fold.ts';
import { MAX_REF_HOPS, resolveRef } from '../refs.ts';
import { acceptsAll, sameSubtree, subEmbedded, subValue } from './util.ts';

/**
 * Where the keywords of a folded node are written, for pointers (see Aliases in context.ts):
 * a keyword (or `properties` and a name, or `allOf` and an index) → its path from the node,
 * or its place in the document when a reference led to it.
 */
export type Places = Record<string, string>;

/** A path below a place: segments joined by PATH_ALIAS, or a longer pointer past a reference. */
function below(place: string, ...segments: (string | number)[]): string {
  return place.startsWith(PLACE_IN_DOCUMENT)
    ? appendPointer(place, ...segments)
    : [place, ...segments.map(String)].join(PATH_ALIAS);
}

/**
 * Folds allOf branches into their parent where no keyword conflicts (properties merge per
 * name, required unites) and no keyword would read other neighbours than it did (see
 * adjacent.ts), so plain keyword rules see them. What conflicts stays an allOf. `places` is
 * told where each keyword brought in from a branch is written (and each name a branch adds to
 * `required`); `made` is what the outermost fold made so far, passed to the folds of branches.
 */
export function flattenAllOf(
  node: JsonObject,
  side: 'sub' | 'sup',
  ctx: Ctx,
  places: Places = {},
  depth = 0,
  made?: Owned,
): JsonObject {
  if (!Array.isArray(node.allOf) || depth > 4) return node;
  const owned = made ?? { maps: new WeakSet(), lists: new WeakSet(), names: new WeakMap() };
  const merged: JsonObject = withoutKeys(node, ['allOf']);
  const residual: Json[] = [];
  const residualAt: string[] = [];
  let keptAt: string[] = [];
  for (let index = 0; index < node.allOf.length; index++) {
    const raw = node.allOf[index] as Json;
    let branch = raw as Schema;
    let at = below('allOf', index);
    // A branch that is only a reference is its target, followed to the end of a chain of them.
    for (let hops = 0; hops < MAX_REF_HOPS && isObject(branch) && onlyRef(branch); hops++) {
      const target = resolveRef(ctx.shared[side].root, branch.$ref as string);
      if (!target) break;
      branch = target.schema;
      at = `${PLACE_IN_DOCUMENT}${target.pointer}`;
    }
    if (branch === true) continue;
    if (branch === false) return { not: {} };
    const inner: Places = {};
    branch = flattenAllOf(branch, side, ctx, inner, depth + 1, owned);
    const before = { ...merged };
    // The names it declares that the node did not (asked before the merge, which adds them in place).
    const had = isObject(merged.properties) ? merged.properties : {};
    const fresh = isObject(branch.properties)
      ? Object.keys(branch.properties).filter((name) => !Object.hasOwn(had, name))
      : [];
    const freshRequired = requiredNames(branch).filter((name) => !requires(merged, name, owned));
    // A reference left in a branch (beside other keywords, or at the end of too long a chain)
    // is followed by the walk where it stands; copied into the parent, it would be read as
    // a keyword there and its target never compared. A discriminator is read beside its own
    // oneOf and required (see discriminator.ts), so its branch is judged where it is written too.
    if (KEPT_APART.some((k) => Object.hasOwn(branch, k)) || !mergeInto(merged, branch, owned)) {
      residual.push(raw);
      residualAt.push(below('allOf', index));
      continue;
    }
    // Where each keyword the branch brought is written (its own places first, if it was folded too).
    const from = (key: string, ...segments: (string | number)[]): string => {
      const found = inner[key];
      if (found === undefined) return below(at, ...segments);
      return found.startsWith(PLACE_IN_DOCUMENT) ? found : below(at, ...found.split(PATH_ALIAS));
    };
    for (const k of Object.keys(branch)) {
      if (Object.hasOwn(before, k)) continue;
      if (k === 'allOf')
        keptAt = (branch.allOf as Json[]).map((_, i) => from(`allOf${PATH_ALIAS}${i}`, 'allOf', i));
      else if (k !== 'properties') places[k] = from(k, k);
    }
    for (const name of fresh)
      if (!name.includes(PATH_ALIAS))
        places[`properties${PATH_ALIAS}${name}`] = from(`properties${PATH_ALIAS}${name}`, 'properties', name);
    // A name the branch requires that the node did not is written in the branch's list.
    for (const name of freshRequired)
      if (!name.includes(PATH_ALIAS))
        places[`required${PATH_ALIAS}${name}`] = from(`required${PATH_ALIAS}${name}`, 'required');
  }
  // A branch merged with an allOf of its own (what was left of folding it) brought that allOf
  // into the node: its members stay conjuncts beside this node's own.
  const kept = Array.isArray(merged.allOf) ? merged.allOf : [];
  [...keptAt.slice(0, kept.length), ...residualAt].forEach((place, i) => {
    if (place !== below('allOf', i)) places[`allOf${PATH_ALIAS}${i}`] = place;
  });
  if (residual.length === 0) return merged;
  return { ...merged, allOf: [...kept, ...residual] };
}

/** Keywords that refer to another schema, or (a discriminator) read the branch's own keywords: a branch holding one is compared whole, never merged. */
const KEPT_APART = ['$ref', '$dynamicRef', '$recursiveRef', 'discriminator'];

function onlyRef(branch: JsonObject): boolean {
  return typeof branch.$ref === 'string' && Object.keys(branch).length === 1;
}

/**
 * What one fold made itself (never a document's own, nor another fold's), which it may add to
 * in place: property maps and required lists. Copied once per fold, then added to: a copy per
 * branch would cost the square of their number. `names` holds the names of each list met, so
 * asking whether a list holds a name costs the same however long it is.
 */
interface Owned {
  maps: WeakSet<JsonObject>;
  lists: WeakSet<Json[]>;
  names: WeakMap<Json[], Set<Json>>;
}

function namesOf(list: Json[], owned: Owned): Set<Json> {
  let names = owned.names.get(list);
  if (!names) {
    names = new Set(list);
    owned.names.set(list, names);
  }
  return names;
}

/** The names a schema's `required` lists (strings only; the meta-schema allows no other). */
function requiredNames(s: JsonObject): string[] {
  return Array.isArray(s.required) ? s.required.filter((n): n is string => typeof n === 'string') : [];
}

/** Whether a node requires a name. */
function requires(node: JsonObject, name: string, owned: Owned): boolean {
  return Array.isArray(node.required) && namesOf(node.required, owned).has(name);
}

/** Adds a branch's required names to the node's, once each, in a list of the fold's own. */
function uniteRequired(target: JsonObject, names: Json[], owned: Owned): void {
  let into = target.required as Json[];
  if (!owned.lists.has(into)) {
    into = [...namesOf(into, owned)];
    owned.lists.add(into);
  }
  const seen = namesOf(into, owned);
  for (const name of names)
    if (!seen.has(name)) {
      seen.add(name);
      into.push(name);
    }
  target.required = into;
}

function mergeInto(target: JsonObject, branch: JsonObject, owned: Owned): boolean {
  if (!keepsAdjacency(target, branch)) return false;
  for (const [k, v] of Object.entries(branch)) {
    if (
      ANNOTATIONS.has(k) ||
      !Object.hasOwn(target, k) ||
      k === 'required' ||
      k === 'properties' ||
      sameJson(target[k], v)
    )
      continue;
    return false;
  }
  const tp = target.properties,
    bp = branch.properties;
  if (
    isObject(tp) &&
    isObject(bp) &&
    Object.keys(bp).some((k) => Object.hasOwn(tp, k) && !sameJson(tp[k], bp[k]))
  )
    return false;
  for (const [k, v] of Object.entries(branch)) {
    if (ANNOTATIONS.has(k) && Object.hasOwn(target, k)) continue;
    if (k === 'required' && Array.isArray(target.required) && Array.isArray(v)) {
      uniteRequired(target, v, owned);
    } else if (k === 'properties' && isObject(tp) && isObject(v)) {
      const into = owned.maps.has(tp) ? tp : { ...tp };
      owned.maps.add(into);
      for (const [name, schema] of Object.entries(v)) setMember(into, name, schema);
      target.properties = into;
    } else {
      target[k] = v;
    }
  }
  return true;
}

function combinator(s: JsonObject): 'anyOf' | 'oneOf' | undefined {
  return Array.isArray(s.anyOf) ? 'anyOf' : Array.isArray(s.oneOf) ? 'oneOf' : undefined;
}

/** Runs includes on a scratch context; passes when nothing breaking or unknown came out. */
function attempt(sub: Schema, sup: Schema, ctx: Ctx): Ctx {
  const t = ctx.trial();
  t.include(sub, sup);
  return t;
}

function failures(t: Ctx): number {
  return t.findings.filter((f) => f.verdict !== 'compatible').length;
}

/** Findings of a trial that fail inclusion under strict set semantics (the assumed ones too). */
function strictFailures(t: Ctx, ctx: Ctx): number {
  return t.findings.filter((f) => ruleVerdict(f.rule, ctx.direction, true) !== 'compatible').length;
}

/** Whether a trial failed on a type, anywhere in the value (a sign the schemas hold other values). */
function typeMismatch(t: Ctx): boolean {
  return t.findings.some((f) => f.verdict === 'breaking' && f.rule.startsWith('type-'));
}

/**
 * Whether a trial failed on the type of the branch's own value (the branches hold different kinds
 * of value), not on one inside it: a branch whose property changed type is still the branch's
 * counterpart, and its differences are the ones to report.
 */
function ownTypeMismatch(t: Ctx): boolean {
  return t.findings.some(
    (f) => f.verdict === 'breaking' && f.rule.startsWith('type-') && f.trail.length === t.trail.length,
  );
}

/**
 * The closest of several failed trials: same types first, then the old branch's own
 * counterpart (the same schema or reference, whose content changed), then fewest failures,
 * then fewest unknowns, then by the content of what was tried, never by position, so
 * reordering branches cannot change a verdict.
 */
function closest<T extends { t: Ctx; tried: Schema }>(
  trials: T[],
  counterpart: (x: T) => boolean = () => false,
  mismatch: (t: Ctx) => boolean = typeMismatch,
): T | undefined {
  const unknowns = (t: Ctx): number => t.findings.filter((f) => f.verdict === 'unknown').length;
  const rank = (x: T): (number | string)[] => [
    mismatch(x.t) ? 1 : 0,
    counterpart(x) ? 0 : 1,
    failures(x.t),
    unknowns(x.t),
    canonicalJson(x.tried),
  ];
  let best: T | undefined;
  let bestRank: (number | string)[] | undefined;
  for (const x of trials) {
    const r = rank(x);
    const i = bestRank ? r.findIndex((v, k) => v !== (bestRank as (number | string)[])[k]) : 0;
    if (!bestRank || (i >= 0 && (r[i] as number | string) < (bestRank[i] as number | string))) {
      best = x;
      bestRank = r;
    }
  }
  return best;
}

/**
 * anyOf / oneOf. Each old branch must fit some new branch (and the keywords beside them);
 * branches no old branch fits were added. A oneOf must also stay exclusive.
 */
export function compareBranches(sub: JsonObject, sup: JsonObject, ctx: Ctx): boolean {
  const ka = combinator(sub),
    kb = combinator(sup);
  if (!ka && !kb) return false;
  if (ka && kb && ka === kb && sameSubtree(sub[ka], sup[kb], ctx)) {
    // The same anyOf on both sides says nothing of a oneOf beside it (on either side), which
    // must hold too: compared on its own. Without the anyOf each side accepts more, so what is
    // shown included without it is included with it.
    if (ka === 'anyOf' && (Array.isArray(sub.oneOf) || Array.isArray(sup.oneOf)))
      return compareBranches(withoutKeys(sub, ['anyOf']), withoutKeys(sup, ['anyOf']), ctx);
    return false;
  }
  const supBranches = kb ? (sup[kb] as Schema[]) : undefined;
  const supSib = kb ? withoutKeys(sup, [kb]) : sup;
  // Each old branch as the validator reads it, with the keywords beside it; one that can never
  // match (its type excluded there) is false and accepts nothing.
  const subBranches = ka
    ? (sub[ka] as Schema[]).map((b) => foldBranch(withoutKeys(sub, [ka]), b, 'sub', ctx))
    : [sub];
  const matched = new Set<number>();
  subBranches.forEach((branch, i) => {
    if (branch === false) return;
    const here = ka ? ctx.childSides([ka, i], [], sub) : ctx;
    if (!supBranches) {
      here.include(branch, sup);
      return;
    }
    if (!acceptsAll(supSib)) {
      // The keywords beside the new branches must hold too; only their failures are news here.
      const t = attempt(branch, supSib, here);
      ctx.findings.push(...t.findings.filter((f) => f.verdict !== 'compatible'));
    }
    const old = ka ? (sub[ka] as Schema[])[i] : sub;
    const order = trialOrder(branch, old, supBranches, !!ka, ctx);
    const trials: { j: number; tried: Schema; t: Ctx }[] = [];
    let hit: (typeof trials)[number] | undefined;
    for (const j of order) {
      const t = attempt(branch, supBranches[j] as Schema, here.childSides([], [kb as string, j], sub));
      trials.push({ j, tried: supBranches[j] as Schema, t });
      if (failures(t) === 0) {
        hit = trials[trials.length - 1];
        break;
      }
    }
    if (hit) {
      matched.add(hit.j);
      ctx.adopt(hit.t);
      if (kb === 'oneOf') checkExclusive(branch, supBranches, hit.j, ctx);
      return;
    }
    // No new branch takes the old one whole: report the closest match's differences when they
    // are all decided and of the same type, else the branch as removed (its witness is verified
    // either way).
    // A branch that kept the old one's reference is where its change is: its differences are
    // the ones to report (a tie on their count with an unrelated branch went by content).
    const index = branchIndex(supBranches, ctx);
    const own = new Set([...index.equal(old), ...index.sameRef(old)]);
    const near = closest(trials, (x) => own.has(x.j), ownTypeMismatch);
    const decided =
      near !== undefined && !ownTypeMismatch(near.t) && near.t.findings.every((f) => f.verdict !== 'unknown');
    if (near && (decided || !ka)) ctx.adopt(near.t);
    else
      ctx.emit(
        ctx.id('any-of-branch-removed', 'any-of-branch-added'),
        ctx.onNew(ka ? [ka, i] : [], kb ? [kb] : []),
        { keyword: ka as string, index: i },
        () => subValue(ctx, branch),
        function* () {
          yield* closestValues(ctx, near?.t);
          yield* branchValues(ctx, branch);
        },
      );
  });
  supBranches?.forEach((_, j) => {
    if (!matched.has(j))
      ctx.emit(
        ctx.id('any-of-branch-added', 'any-of-branch-removed'),
        ctx.onNew(ka ? [ka] : [], [kb as string, j]),
        {
          keyword: kb as string,
          index: j,
        },
      );
  });
  return true;
}

const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;

/** Values tried from one closest trial, at most: each costs a validation on both sides. */
const CLOSEST_VALUES = 8;

/**
 * Values of the old branch that the closest new branch rejects, as its findings built them
 * (a property changed deep inside the branch is shown by a value that reaches it, where the
 * branch's minimal value would not), each placed in the branch's value at its place.
 */
function* closestValues(ctx: Ctx, near: Ctx | undefined): Generator<Json | undefined> {
  let tried = 0;
  for (const f of near?.findings ?? []) {
    if (f.verdict === 'compatible' || f.local === undefined) continue;
    const v = f.local();
    if (v === undefined) continue;
    if (tried++ >= CLOSEST_VALUES) return;
    yield subEmbedded(ctx, f.trail.slice(ctx.trail.length), v);
  }
}

/**
 * Values of an old branch besides its first: one of each type it may hold, then variants. The
 * first value built may be one another new branch takes (`null`, when `true` was removed
 * beside `{type: 'null'}`); the break is then shown by another.
 */
function* branchValues(ctx: Ctx, branch: Schema): Generator<Json | undefined> {
  for (const type of TYPES) yield subValue(ctx, branch, 0, type);
  for (let salt = 1; salt <= 3; salt++) yield subValue(ctx, branch, salt);
}

/**
 * The new branches to try for one old branch, in order, produced as the trials need them.
 * Trials stop at the first new branch that takes the old one; the likeliest go first (the
 * same schema, then the same reference), so the others are usually never looked at. Which of
 * several fitting branches is found changes only notes, never a verdict. A new branch that
 * provably shares no value with the old one (another type, another discriminator) can neither
 * take it nor be the closest match worth reporting. When every branch is such, an old branch
 * is simply gone (a request type removed): no trial can say more. A lone old schema is still
 * compared with them, for the closest one's differences. Ties go by content, never by
 * position, so reordering branches cannot change which is found.
 */
function* trialOrder(
  branch: Schema,
  old: Schema | undefined,
  supBranches: Schema[],
  combined: boolean,
  ctx: Ctx,
): Generator<number> {
  const index = branchIndex(supBranches, ctx);
  const tried = new Set<number>();
  for (const j of [...index.equal(old), ...index.sameRef(old)]) {
    tried.add(j);
    yield j;
  }
  // The overlapping branches are usually few: sorted alone, not picked out of all of them.
  const rest = index.inContentOrder([...index.overlapping(branch, ctx)].filter((j) => !tried.has(j)));
  if (tried.size === 0 && rest.length === 0) {
    if (!combined) yield* index.byContent;
    return;
  }
  yield* rest;
}

/** Whether the old branch's values can also match another new branch (which would fail oneOf). */
function checkExclusive(branch: Schema, supBranches: Schema[], j: number, ctx: Ctx): void {
  for (const k of branchIndex(supBranches, ctx).overlapping(branch, ctx)) {
    if (k === j) continue;
    ctx.emit('one-of-branches-overlap', ['oneOf', k], { index: k });
    return;
  }
}

/** An allOf left on the old side: enough that one conjunct fits. */
export function compareSubAllOf(sub: JsonObject, sup: JsonObject, ctx: Ctx): boolean {
  if (!Array.isArray(sub.allOf) || sameSubtree(sub.allOf, sup.allOf, ctx)) return false;
  const conjuncts: Schema[] = [withoutKeys(sub, ['allOf']), ...(sub.allOf as Schema[])];
  const trials = conjuncts.map((c) => ({ tried: c, t: attempt(c, sup, ctx) }));
  // One conjunct alone must fit without the open-objects assumption: a key it leaves undeclared
  // may be declared by another conjunct, and then callers do send it.
  const strictHit = trials.find(({ t }) => strictFailures(t, ctx) === 0);
  if (strictHit) {
    ctx.adopt(strictHit.t);
    return true;
  }
  const hit = closest(trials);
  if (!hit) return true;
  // The closest conjunct fits only by assuming keys unsent that another conjunct may declare:
  // that assumption proves nothing here, so such a step counts as strict semantics say, a break
  // that stands only if the validator confirms its witness (otherwise it is reported unknown).
  for (const f of hit.t.findings)
    if (f.verdict === 'compatible' && ruleVerdict(f.rule, ctx.direction, true) !== 'compatible')
      f.verdict = ruleVerdict(f.rule, ctx.direction, true) as typeof f.verdict;
  ctx.adopt(hit.t);
  return true;
}

/**
 * An allOf on both sides: the old conjunction must fit each new conjunct (the keywords beside
 * the new allOf are one more), and it is enough that some old conjunct fits each, so a change
 * inside one conjunct is compared with the conjunct that holds it rather than with the whole
 * new side. Not where `unevaluated*` reads across the conjuncts, which then cannot be split.
 */
export function compareBothAllOf(sub: JsonObject, sup: JsonObject, ctx: Ctx): boolean {
  if (!Array.isArray(sub.allOf) || !Array.isArray(sup.allOf) || sameSubtree(sub.allOf, sup.allOf, ctx))
    return false;
  if ([sub, sup].some((s) => 'unevaluatedProperties' in s || 'unevaluatedItems' in s)) return false;
  const rest = withoutKeys(sup, ['allOf']);
  const parts: [Schema, Ctx][] = [
    ...(sup.allOf as Schema[]).map((b, i): [Schema, Ctx] => [b, ctx.childSides([], ['allOf', i], sub)]),
  ];
  if (!acceptsAll(rest)) parts.unshift([rest, ctx]);
  for (const [part, here] of parts) {
    const t = attempt(sub, part, here);
    ctx.findings.push(
      ...t.findings.filter(
        (f) => f.verdict !== 'compatible' || ruleVerdict(f.rule, ctx.direction, true) !== 'compatible',
      ),
    );
  }
  return true;
}

/** An allOf on the new side: every conjunct must hold. Returns the new schema without it. */
export function compareSupAllOf(sub: JsonObject, sup: JsonObject, ctx: Ctx): JsonObject {
  if (!Array.isArray(sup.allOf) || sameSubtree(sub.allOf, sup.allOf, ctx)) return sup;
  (sup.allOf as Schema[]).forEach((b, i) => {
    // Each conjunct alone is looser than the whole; only where it rejects something is news.
    const t = attempt(sub, b, ctx.childSides([], ['allOf', i], sub));
    // Kept too: what holds only under the open-objects assumption (strict mode, and an enclosing
    // allOf whose other conjuncts may declare the key, must see it).
    ctx.findings.push(
      ...t.findings.filter(
        (f) => f.verdict !== 'compatible' || ruleVerdict(f.rule, ctx.direction, true) !== 'compatible',
      ),
    );
  });
  return withoutKeys(sup, ['allOf']);
}
