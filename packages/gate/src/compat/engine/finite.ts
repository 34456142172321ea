import type { RuleId } from '../rules.ts';
import { isObject, withoutKeys } from '../generate/merge.ts';
import type { Json, JsonObject } from '../types.ts';
import { compileSchema } from '../validator.ts';
import type { Ctx } from './context.ts';
import { firstThat, subValue } from './util.ts';
import { DIRECT } from './direct.ts';
import { finiteTest, keySet, memberOf } from './value-sets.ts';
import { canonicalKeys } from '../hash.ts';
import { acceptedMembers } from './whole.ts';

/** Which rule names the failure of a keyword when a known value is rejected. */
const RULE_FOR: Record<string, [RuleId, RuleId]> = {
  type: ['type-narrowed', 'type-widened'],
  minLength: ['min-length-increased', 'min-length-decreased'],
  maxLength: ['max-length-decreased', 'max-length-increased'],
  pattern: ['pattern-added', 'pattern-removed'],
  format: ['format-added', 'format-removed'],
  minimum: ['minimum-increased', 'minimum-decreased'],
  exclusiveMinimum: ['minimum-increased', 'minimum-decreased'],
  maximum: ['maximum-decreased', 'maximum-increased'],
  exclusiveMaximum: ['maximum-decreased', 'maximum-increased'],
  multipleOf: ['multiple-of-narrowed', 'multiple-of-widened'],
  minItems: ['min-items-increased', 'min-items-decreased'],
  maxItems: ['max-items-decreased', 'max-items-increased'],
  uniqueItems: ['unique-items-added', 'unique-items-removed'],
  minProperties: ['min-properties-increased', 'min-properties-decreased'],
  maxProperties: ['max-properties-decreased', 'max-properties-increased'],
  required: ['property-became-required', 'property-became-optional'],
};

function valuesOf(s: JsonObject): Json[] | undefined {
  if ('const' in s) return [s.const as Json];
  return Array.isArray(s.enum) ? s.enum : undefined;
}

/**
 * A function naming the keyword of `sup` that rejects a value, judged by the real validator
 * (undefined when it accepts). The value is already known to be in sup's own finite set; an
 * enum or const beside it (both may be given) is decided by set lookup, the other keywords by
 * one validator compiled once for the whole set.
 */
function rejectingKeyword(
  sup: JsonObject,
  dialect: string,
): (value: Json, key: string) => string | undefined {
  const direct: JsonObject = {};
  for (const k of DIRECT)
    if (Object.hasOwn(sup, k) && k !== 'enum' && k !== 'const') direct[k] = sup[k] as Json;
  const inEnum = finiteTest(withoutKeys(sup, ['const']));
  const inConst = finiteTest(withoutKeys(sup, ['enum']));
  if (dialect === 'draft-07') direct.$schema = 'http://json-schema.org/draft-07/schema#';
  const fn = Object.keys(direct).some((k) => k !== '$schema') ? compileSchema(direct) : undefined;
  // In the validator's order: the type first, then const and enum, then the typed keywords.
  return (value, key) => {
    const failed = fn && !fn(value) ? (fn.errors?.[0]?.keyword ?? 'type') : undefined;
    if (failed === 'type') return failed;
    if (inConst && !inConst(value, key)) return 'const';
    if (inEnum && !inEnum(value, key)) return 'enum';
    return failed;
  };
}

/**
 * enum and const, decided exactly: a finite old set is checked value by value with the
 * validator, so the witness is always one of the values that used to be allowed.
 * Returns true when the node is fully decided (all values are scalars). Sets are compared by
 * lookup in hash sets of canonical JSON: linear in their sizes, never pairwise.
 */
export function compareFinite(sub: JsonObject, sup: JsonObject, ctx: Ctx): boolean {
  // Only the members the old node accepts whole were ever accepted (a null in the enum of a
  // string is not): the others can neither be lost nor witness a break.
  const listed = valuesOf(sub);
  const a = listed && acceptedMembers(listed, sub, 'sub', ctx),
    b = valuesOf(sup);
  const supKind = 'const' in sup ? 'const' : 'enum';
  // Where the finite set sits in the new schema (sup for input, sub for output).
  const at = ctx.onNew([valuesOf(sub) && 'const' in sub ? 'const' : 'enum'], [supKind]);
  if (a) {
    const rejecting = rejectingKeyword(sup, ctx.shared.sup.dialect);
    // Each member's canonical JSON is written once, and each set built once.
    const keysA = canonicalKeys(a);
    const inB = b && keySet(b);
    for (const [i, v] of a.entries()) {
      const key = keysA[i] as string;
      if (inB && !inB.has(key)) {
        const rule =
          supKind === 'enum'
            ? ctx.id('enum-value-removed', 'enum-value-added')
            : 'const' in sub
              ? 'const-changed'
              : ctx.id('const-added', 'const-removed');
        const args = rule === 'const-changed' ? ctx.oldNew<Json>(v, sup.const as Json) : { value: v };
        ctx.emit(rule, at, args, () => v);
        continue;
      }
      const kw = rejecting(v, key);
      const pair = kw ? RULE_FOR[kw] : undefined;
      if (kw && pair)
        ctx.emit(ctx.id(pair[0], pair[1]), ctx.onNew([], [kw]), { value: v, keyword: kw }, () => v);
      else if (kw)
        ctx.emit(
          ctx.id('enum-value-removed', 'enum-value-added'),
          ctx.onNew([], [kw]),
          { value: v },
          () => v,
        );
    }
    if (b) {
      // Likewise only a member the new node accepts whole is news when the old set lacks it.
      const added = 'const' in sub && 'const' in sup ? [] : acceptedMembers(b, sup, 'sup', ctx);
      const inA = keySet(a);
      const keysAdded = canonicalKeys(added);
      for (const [i, w] of added.entries()) {
        if (!inA.has(keysAdded[i] as string))
          ctx.emit(ctx.id('enum-value-added', 'enum-value-removed'), at, { value: w });
      }
    } else {
      const rule =
        'const' in sub ? ctx.id('const-removed', 'const-added') : ctx.id('enum-removed', 'enum-added');
      ctx.emit(rule, [], 'const' in sub ? { value: sub.const as Json } : { count: a.length });
    }
    return a.every((v) => !isObject(v) && !Array.isArray(v));
  }
  if (b) {
    const rule =
      supKind === 'const' ? ctx.id('const-added', 'const-removed') : ctx.id('enum-added', 'enum-removed');
    const local = (): Json | undefined =>
      firstThat(
        [0, 1, 2, 3, 4, 5].map((salt) => subValue(ctx, sub, salt)),
        (v) => !memberOf(b, v),
      );
    ctx.emit(rule, at, supKind === 'const' ? { value: sup.const as Json } : { count: b.length }, local);
    return true;
  }
  return false;
}
