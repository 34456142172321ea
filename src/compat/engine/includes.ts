import { isObject, withoutKeys } from '../generate/merge.ts';
import { ANALYSED, ANNOTATIONS } from '../keywords.ts';
import type { JsonObject, Schema } from '../types.ts';
import { compareAnnotations } from './annotations.ts';
import { compareArrays } from './array.ts';
import { compareBranches, compareSupAllOf, compareSubAllOf, flattenAllOf } from './combinators.ts';
import { MAX_DEPTH, type Ctx } from './context.ts';
import { compareFinite } from './finite.ts';
import { compareNumbers } from './number.ts';
import { compareObjects } from './object.ts';
import { compareOpaque } from './opaque.ts';
import { resolveRef, siblingsApply } from './refs.ts';
import { compareStrings } from './string.ts';
import { compareTypes } from './type.ts';
import { acceptsAll, sameSubtree, shared, subValue } from './util.ts';

interface Located {
  schema: Schema;
  ptr: string;
}

/** Follows `$ref`s at the top of a node; keywords beside a ref become an allOf (2019+), or are dropped (draft-07). */
function deref(node: Schema, ptr: string, side: 'sub' | 'sup', ctx: Ctx): Located | { unresolved: string } {
  let schema = node;
  let at = ptr;
  for (let hops = 0; isObject(schema) && typeof schema.$ref === 'string'; hops++) {
    if (hops > 32) return { unresolved: schema.$ref };
    const { root, dialect } = ctx.shared[side];
    const target = resolveRef(root, schema.$ref);
    if (!target) return { unresolved: schema.$ref };
    const rest = withoutKeys(schema, ['$ref']);
    const constraining = Object.keys(rest).some((k) => !ANNOTATIONS.has(k));
    if (siblingsApply(dialect) && constraining) {
      return {
        schema: { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { $ref: schema.$ref }] },
        ptr: at,
      };
    }
    schema = target.schema;
    at = target.pointer;
  }
  return { schema, ptr: at };
}

/**
 * Records in ctx every way in which `sub` accepts a value that `sup` rejects (and, as notes,
 * the ways `sup` is looser). Inclusion is decided where the gate can; elsewhere it says unknown.
 */
export function includes(subIn: Schema, supIn: Schema, ctx: Ctx): void {
  if (ctx.depth > MAX_DEPTH) {
    ctx.emit('recursion-too-deep', '', {});
    return;
  }
  const a = deref(subIn, ctx.subPtr, 'sub', ctx);
  const b = deref(supIn, ctx.supPtr, 'sup', ctx);
  for (const r of [a, b]) {
    if ('unresolved' in r) {
      ctx.emit('ref-unresolvable', '', { ref: r.unresolved });
      return;
    }
  }
  const la = a as Located,
    lb = b as Located;
  if (la.ptr !== ctx.subPtr || lb.ptr !== ctx.supPtr) {
    const key = `${la.ptr}\u0000${lb.ptr}`;
    if (ctx.shared.visited.has(key)) return; // recursive schemas: assume inclusion, as a greatest fixpoint
    ctx.shared.visited.add(key);
    ctx = ctx.at(la.ptr, lb.ptr);
  }
  compareNode(la.schema, lb.schema, ctx);
}

function compareNode(subS: Schema, supS: Schema, ctx: Ctx): void {
  if (subS === false) return;
  if (supS === false || (isObject(supS) && isObject(supS.not) && acceptsAll(supS.not))) {
    if (!(isObject(subS) && isObject(subS.not) && acceptsAll(subS.not))) {
      ctx.emit(ctx.id('schema-became-false', 'schema-was-false'), '', {}, () => subValue(ctx, subS));
    }
    return;
  }
  if (supS === true && subS === true) return;
  const sub = flattenAllOf(subS === true ? {} : subS, 'sub', ctx);
  const sup = flattenAllOf(supS === true ? {} : supS, 'sup', ctx);
  if (sameSubtree(sub, sup, ctx)) return;
  compareAnnotations(sub, sup, ctx);
  compareUnknown(sub, sup, ctx);
  if (compareBranches(sub, sup, ctx)) return;
  if (compareSubAllOf(sub, sup, ctx)) return;
  const supRest = compareSupAllOf(sub, sup, ctx);
  compareOpaque(sub, supRest, ctx);
  compareKeywords(sub, supRest, ctx);
}

/** The keyword families, for the types both sides admit. */
export function compareKeywords(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  if (compareFinite(sub, sup, ctx)) return;
  compareTypes(sub, sup, ctx);
  if (shared(sub, sup, 'object')) compareObjects(sub, sup, ctx);
  if (shared(sub, sup, 'array')) compareArrays(sub, sup, ctx);
  if (shared(sub, sup, 'string')) compareStrings(sub, sup, ctx);
  if (shared(sub, sup, 'number')) compareNumbers(sub, sup, ctx);
}

/** A keyword the gate does not analyse may stay as it is (it constrains both sides alike); if it changes, the verdict is unknown. */
function compareUnknown(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const keys = new Set([...Object.keys(sub), ...Object.keys(sup)]);
  for (const k of keys) {
    if (ANALYSED.has(k) || ANNOTATIONS.has(k)) continue;
    if (sameSubtree(sub[k], sup[k], ctx)) continue;
    const rule = k.startsWith('x-') ? 'extension-keyword-changed' : 'unknown-keyword-changed';
    ctx.emit(rule, `/${k}`, { keyword: k });
  }
}
