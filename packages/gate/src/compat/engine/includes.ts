import { isObject, withoutKeys } from '../generate/merge.ts';
import { ANALYSED, ANNOTATIONS, keywordsWhere, ONE_TYPE_KEYWORDS, TEXT_KEYWORDS } from '../keywords.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Dialect } from '../validator.ts';
import { compareAnnotations } from './annotations.ts';
import { compareArrays } from './array.ts';
import {
  compareBothAllOf,
  compareBranches,
  compareSupAllOf,
  compareSubAllOf,
  flattenAllOf,
  type Places,
} from './combinators.ts';
import { Ctx, MAX_DEPTH, type Aliases, type RawFinding } from './context.ts';
import { fromDependencies, readFromDependencies } from './dependencies.ts';
import { judgeDiscriminators, readDiscriminator } from './discriminator.ts';
import { compareFinite } from './finite.ts';
import { compareNumbers } from './number.ts';
import { compareObjects } from './object.ts';
import { compareOpaque } from './opaque.ts';
import { MAX_REF_HOPS, resolveRef, siblingsApply } from '../refs.ts';
import { definitionIds, definitionPairKey, sameDefinition } from './shared-decisions.ts';
import { compareStrings } from './string.ts';
import { compareFiniteWhole } from './whole.ts';
import { compareTypes } from './type.ts';
import { compareUnevaluatedReads, withoutUnevaluated } from './unevaluated.ts';
import { acceptsAll, sameSubtree, shared, subValue } from './util.ts';

interface Located {
  schema: Schema;
  ptr: string;
  /** Whether a $ref was followed, so the pointer is a location in the document rather than a path from here. */
  moved: boolean;
}

/** Follows `$ref`s at the top of a node; keywords beside a ref become an allOf (2019+), or are dropped (draft-07). */
function deref(node: Schema, ptr: string, side: 'sub' | 'sup', ctx: Ctx): Located | { unresolved: string } {
  let schema = node;
  let at = ptr;
  let moved = false;
  for (let hops = 0; isObject(schema) && typeof schema.$ref === 'string'; hops++) {
    if (hops > MAX_REF_HOPS) return { unresolved: schema.$ref };
    const { root, dialect } = ctx.shared[side];
    const target = resolveRef(root, schema.$ref);
    if (!target) return { unresolved: schema.$ref };
    const rest = withoutKeys(schema, ['$ref']);
    const constraining = Object.keys(rest).some((k) => !ANNOTATIONS.has(k));
    if (siblingsApply(dialect) && constraining) {
      return {
        schema: { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { $ref: schema.$ref }] },
        ptr: at,
        moved,
      };
    }
    schema = target.schema;
    at = target.pointer;
    moved = true;
  }
  return { schema, ptr: at, moved };
}

/**
 * A number per distinct subschema (by content), so a pair key is short. Each object is numbered
 * once, from the numbers of its members, so numbering a document costs one walk of it (plain
 * JSON text of every subschema would cost a walk per level). Two spellings of one schema (keys
 * in another order) only get two numbers, which costs a second decision, never a wrong one. The
 * same number on both sides is harmless: a pair key says which side each number is on.
 */
function idOf(schema: Schema, ctx: Ctx): string {
  if (typeof schema === 'boolean') return String(schema);
  return String(intern(schema, ctx.shared.memory));
}

/** A member as it stands in its parent's interned text (see intern). */
function partOf(x: Json, mem: Ctx['shared']['memory']): string {
  return x !== null && typeof x === 'object' ? `#${intern(x, mem)}` : JSON.stringify(x);
}

function intern(node: Json, mem: Ctx['shared']['memory']): number {
  const isObj = node !== null && typeof node === 'object';
  if (isObj) {
    const cached = mem.interned.get(node);
    if (cached !== undefined) return cached;
  }
  // A child object stands in its parent's text by its id (`#n`, which no JSON text starts with); a
  // child scalar by its own JSON text, so a 100,000-value enum adds one entry to `ids`, not 100,001.
  let text: string;
  if (!isObj) text = JSON.stringify(node);
  else if (Array.isArray(node)) {
    // An array of scalars (an enum) is its JSON text, written in one native call.
    if (node.every((x) => x === null || typeof x !== 'object')) text = JSON.stringify(node);
    else {
      text = '[';
      for (let i = 0; i < node.length; i++) text += `${i > 0 ? ',' : ''}${partOf(node[i] as Json, mem)}`;
      text += ']';
    }
  } else {
    // A node read from draft-07 `dependencies` means more than its JSON text says (see dependencies.ts).
    text = readFromDependencies(node as JsonObject) ? 'read {' : '{';
    let first = true;
    for (const k of Object.keys(node)) {
      text += `${first ? '' : ','}${JSON.stringify(k)}:${partOf((node as JsonObject)[k] as Json, mem)}`;
      first = false;
    }
    text += '}';
  }
  let id = mem.ids.get(text);
  if (id === undefined) {
    id = mem.ids.size;
    mem.ids.set(text, id);
  }
  if (isObj) mem.interned.set(node, id);
  return id;
}

/**
 * The context a walk starts from, carrying `includes` as its recursion: a keyword's comparison
 * decides its subschemas through `ctx.include`, and never imports this file.
 */
export function startWalk(settings: Omit<Parameters<typeof Ctx.root>[0], 'include'>, budget?: number): Ctx {
  return Ctx.root({ ...settings, include: includes }, budget);
}

/**
 * Records in ctx every way in which `sub` accepts a value that `sup` rejects (and, as notes,
 * the ways `sup` is looser). Inclusion is decided where the gate can; elsewhere it says unknown.
 *
 * Each (sub, sup) pair of whole subschemas (keywords beside a `$ref` included) is decided once
 * and its findings replayed wherever it is met again. A pair met while it is still being decided
 * is assumed included (co-induction, as for subtyping of recursive types). A result that leaned
 * on an assumption of an enclosing pair is provisional and not remembered; a failure always is,
 * since assumptions can only make inclusion easier. Trials (anyOf branches, allOf conjuncts) use
 * the same memory, so a failed trial leaves a failure, never a false inclusion, behind.
 */
function includes(subIn: Schema, supIn: Schema, ctx: Ctx): void {
  if (!ctx.spend()) return;
  if (ctx.depth > MAX_DEPTH) {
    ctx.situate();
    ctx.emit('recursion-too-deep', [], {});
    return;
  }
  const a = deref(subIn, ctx.subPtr, 'sub', ctx);
  const b = deref(supIn, ctx.supPtr, 'sup', ctx);
  for (const r of [a, b]) {
    if ('unresolved' in r) {
      ctx.emit('ref-unresolvable', [], { ref: r.unresolved });
      return;
    }
  }
  const la = a as Located,
    lb = b as Located;
  const mem = ctx.shared.memory;
  // Two whole definitions, named by content: the same one on both sides is included, and a pair
  // another comparison of this run (another tool) decided exactly is replayed, both before their
  // subtrees are numbered for this walk's own memory.
  const ids = la.moved && lb.moved ? definitionIds(la.ptr, lb.ptr, ctx) : undefined;
  if (ids && sameDefinition(ids, ctx)) return;
  const shared = ids && ctx.shared.decided ? definitionPairKey(ids, ctx) : undefined;
  const known = shared === undefined ? undefined : ctx.shared.decided?.get(shared);
  if (known) {
    replayDecided(known, ctx);
    return;
  }
  const key = `${idOf(la.schema, ctx)}:${idOf(lb.schema, ctx)}`;
  const done = mem.done.get(key);
  if (done) {
    if (!done.exact) ctx.situate();
    replayDecided(done.findings, ctx);
    return;
  }
  const position = mem.active.get(key);
  if (position !== undefined) {
    mem.low = Math.min(mem.low, position); // assumed included while it is being decided
    return;
  }
  // Deciding a pair walks its property maps key by key: a wide pair costs in proportion, so a
  // trial repeated for every entry of another wide map ends in budget-exhausted, not in a
  // quadratic wait (10,000 dependentRequired entries over 10,000 properties, say).
  if (!ctx.spend(Math.floor((width(la.schema) + width(lb.schema)) / KEYS_PER_STEP))) return;
  const here = mem.active.size;
  mem.active.set(key, here);
  const outerLow = mem.low;
  mem.low = Infinity;
  const situated = mem.situated;
  const frame = ctx.frame(la.ptr, lb.ptr, la.moved, lb.moved);
  compareNode(la.schema, lb.schema, frame);
  mem.active.delete(key);
  const leaned = mem.low < here;
  const exact = !leaned && mem.situated === situated;
  if (!mem.exhausted && (!leaned || frame.failed())) mem.done.set(key, { findings: frame.findings, exact });
  if (!mem.exhausted && exact && shared !== undefined) ctx.shared.decided?.set(shared, frame.findings);
  mem.low = leaned ? Math.min(outerLow, mem.low) : outerLow;
  ctx.replay(frame.findings);
}

/** Replays a decided pair's findings here; copying every finding costs in proportion. */
function replayDecided(findings: readonly RawFinding[], ctx: Ctx): void {
  if (ctx.spend(Math.floor(findings.length / KEYS_PER_STEP))) ctx.replay(findings);
}

/** Keys of a node or findings of a pair that cost one step of the budget. */
const KEYS_PER_STEP = 10;
/** Maps keyed by property name (the keyword table's `byName`). */
export const MAPS = keywordsWhere((k) => k.byName === true);

/** How many entries of maps keyed by property name a node holds: what deciding it walks one by one. */
function width(node: Schema): number {
  if (!isObject(node)) return 0;
  let n = 0;
  for (const k of MAPS) {
    const map = node[k];
    if (isObject(map)) n += Object.keys(map).length;
  }
  return n;
}

/**
 * A node's keywords as the walk decides them: common shapes of unevaluated* and draft-07
 * `dependencies` read as the keywords that mean the same there, with the names they came from.
 */
function readDecided(node: JsonObject, dialect: Dialect): { node: JsonObject; aliases: Aliases } {
  const u = withoutUnevaluated(node, dialect);
  const d = fromDependencies(u.node, dialect);
  return { node: d.node, aliases: { ...u.aliases, ...d.aliases } };
}

/** Whether a node holds one keyword besides text, and which. */
function only(node: Schema, keyword: string): node is JsonObject {
  return (
    isObject(node) &&
    Object.hasOwn(node, keyword) &&
    Object.keys(node).every((k) => k === keyword || TEXT_KEYWORDS.has(k))
  );
}

/**
 * X of a node `{not: {not: X}}` (text beside either `not` aside), which validates exactly the
 * values X does; undefined for any other node.
 */
function doubleNegated(node: JsonObject): Schema | undefined {
  if (!only(node, 'not')) return undefined;
  const inner = node.not as Schema;
  return only(inner, 'not') ? (inner.not as Schema) : undefined;
}

function compareNode(subS: Schema, supS: Schema, ctx: Ctx): void {
  if (subS === false) return;
  if (supS === false || (isObject(supS) && isObject(supS.not) && acceptsAll(supS.not))) {
    if (!(isObject(subS) && isObject(subS.not) && acceptsAll(subS.not))) {
      ctx.emit(ctx.id('schema-became-false', 'schema-was-false'), [], {}, () => subValue(ctx, subS));
    }
    return;
  }
  if (supS === true && subS === true) return;
  // Keywords folded in from allOf branches point where they are written (see flattenAllOf).
  const [subPlaces, supPlaces]: Places[] = [{}, {}];
  const flatSub = flattenAllOf(subS === true ? {} : subS, 'sub', ctx, subPlaces);
  const flatSup = flattenAllOf(supS === true ? {} : supS, 'sup', ctx, supPlaces);
  const a = readDecided(flatSub, ctx.shared.sub.dialect);
  const b = readDecided(flatSup, ctx.shared.sup.dialect);
  let sub = a.node,
    sup = b.node;
  ctx = ctx.withAliases({ ...subPlaces, ...a.aliases }, { ...supPlaces, ...b.aliases });
  if (sameSubtree(sub, sup, ctx)) return;
  // `{not: {not: X}}` accepts exactly what X accepts: compared as X, at its place.
  const subX = doubleNegated(sub),
    supX = doubleNegated(sup);
  if (subX !== undefined || supX !== undefined) {
    const at = ctx.childSides(
      subX === undefined ? [] : ['not', 'not'],
      supX === undefined ? [] : ['not', 'not'],
      sub,
    );
    includes(subX ?? sub, supX ?? sup, at);
    return;
  }
  compareAnnotations(sub, sup, ctx);
  compareUnevaluatedReads(sub, sup, ctx);
  // Judged where it is written, a discriminator says nothing more: the oneOf beside it is walked
  // as the oneOf, its branches never read with the discriminator folded in.
  compareDiscriminators(subS, supS, ctx);
  sub = withoutDiscriminator(sub);
  sup = withoutDiscriminator(sup);
  if (compareFiniteWhole(sub, sup, sup, ctx)) return;
  compareUnknown(sub, sup, ctx);
  if (compareBranches(sub, sup, ctx)) return;
  if (compareBothAllOf(sub, sup, ctx)) return;
  if (compareSubAllOf(sub, sup, ctx)) return;
  const supRest = compareSupAllOf(sub, sup, ctx);
  compareOpaque(sub, supRest, ctx);
  compareKeywords(sub, supRest, ctx);
}

/** The keyword families, for the types both sides admit. */
function compareKeywords(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  if (compareFinite(sub, sup, ctx)) return;
  compareTypes(sub, sup, ctx);
  if (shared(sub, sup, 'object')) compareObjects(sub, sup, ctx);
  if (shared(sub, sup, 'array')) compareArrays(sub, sup, ctx);
  if (shared(sub, sup, 'string')) compareStrings(sub, sup, ctx);
  if (shared(sub, sup, 'number')) compareNumbers(sub, sup, ctx);
}

/**
 * A keyword the gate does not analyse may stay as it is (it constrains both sides alike); if it
 * changes, the verdict is unknown. An `x-` keyword is an annotation to the validator (Ajv 8
 * ignores a keyword it was not given, and the only one it is given, `x-mcp-header`, is an
 * annotation too): its change is reported, compatible. `discriminator` is decided apart (see
 * compareDiscriminators); `nullable` and the keywords read as others before the walk
 * (`dependencies`, `unevaluated*`, dynamic references) come here only where that reading did not
 * take them, and fail closed.
 */
function compareUnknown(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const keys = new Set([...Object.keys(sub), ...Object.keys(sup)]);
  for (const k of keys) {
    if (ANALYSED.has(k) || ANNOTATIONS.has(k)) continue;
    if (sameSubtree(sub[k], sup[k], ctx)) continue;
    if (k.startsWith('x-')) ctx.emit('annotation-changed', [k], { keyword: k });
    else ctx.emit('unknown-keyword-changed', [k], { keyword: k });
  }
}

/** Keywords that never judge a value that is not an object: object-only, annotations, the oneOf and discriminator. */
const NOT_BESIDE = new Set([...ONE_TYPE_KEYWORDS.object, ...ANNOTATIONS, 'oneOf', 'discriminator']);

/** What judges a non-object beside a discriminator (an `x-` keyword is an annotation too). */
function besideOneOf(node: JsonObject): JsonObject {
  return withoutKeys(
    node,
    Object.keys(node).filter((k) => NOT_BESIDE.has(k) || k.startsWith('x-')),
  );
}

function withoutDiscriminator(node: JsonObject): JsonObject {
  return Object.hasOwn(node, 'discriminator') ? withoutKeys(node, ['discriminator']) : node;
}

/**
 * OpenAPI's `discriminator`, which Ajv ignores unless a client turns its option on (see
 * discriminator.ts): read from the nodes as written (Ajv reads it beside their own oneOf and
 * required), it changes nothing where it compiles and reads every value as the oneOf does; where
 * Ajv would refuse it, or let through a value the oneOf refuses, the schema means two things.
 */
function compareDiscriminators(subW: Schema, supW: Schema, ctx: Ctx): void {
  const sub = isObject(subW) ? subW : {},
    sup = isObject(supW) ? supW : {};
  if (!Object.hasOwn(sub, 'discriminator') && !Object.hasOwn(sup, 'discriminator')) return;
  const read = (node: JsonObject, side: 'sub' | 'sup') =>
    readDiscriminator(
      node,
      ctx.shared[side].dialect,
      (ref) => resolveRef(ctx.shared[side].root, ref)?.schema,
    );
  const change = judgeDiscriminators(
    read(sub, 'sub'),
    read(sup, 'sup'),
    sameSubtree(sub.discriminator, sup.discriminator, ctx),
    sameSubtree(besideOneOf(sub), besideOneOf(sup), ctx),
  );
  if (change.rule === 'discriminator-ambiguous')
    ctx.emit(change.rule, ['discriminator'], { problem: change.problem });
  else if (change.rule === 'discriminator-changed') {
    const { old, new: now } = ctx.oldNew<Json | undefined>(sub.discriminator, sup.discriminator);
    ctx.emit(change.rule, ['discriminator'], { old, new: now });
  }
}
