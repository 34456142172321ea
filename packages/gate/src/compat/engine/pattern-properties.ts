import { isObject } from '../generate/merge.ts';
import { stringForPattern } from '../generate/pattern.ts';
import type { JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { regexInclusion } from './regex-inclusion.ts';
import { acceptsAll, subValue, valueOutside } from './util.ts';

function patterns(s: JsonObject): JsonObject {
  return isObject(s.patternProperties) ? s.patternProperties : {};
}

function regex(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** The patternProperties regexes of s that match a property name (as a validator applies them). */
export function matchingPatterns(s: JsonObject, key: string): string[] {
  return Object.keys(patterns(s)).filter((p) => regex(p)?.test(key) === true);
}

/** The literal text an anchored regex must start with (`^abc…`), up to its first special character. */
function literalPrefix(pattern: string): string | undefined {
  if (!pattern.startsWith('^')) return undefined;
  const m = /^[A-Za-z0-9_\-:/. ]*/.exec(pattern.slice(1));
  const prefix = m?.[0] ?? '';
  // A quantifier right after the literal run applies to its last character, which is then not fixed.
  const next = pattern[1 + prefix.length];
  return next === '?' || next === '*' || next === '{' ? prefix.slice(0, -1) : prefix;
}

/** Whether no name can match both regexes: shown only for anchored literal prefixes that differ. */
function disjoint(p: string, q: string): boolean {
  const a = literalPrefix(p),
    b = literalPrefix(q);
  if (a === undefined || b === undefined) return false;
  const n = Math.min(a.length, b.length);
  return a.slice(0, n) !== b.slice(0, n);
}

/** Regexes that match every name. */
const MATCH_ALL = new Set(['', '.*', '^.*', '.*$', '^.*$', '[\\s\\S]*', '^[\\s\\S]*$']);

/**
 * Whether every name regex q matches is also matched by p: p matches every name, or both are
 * anchored literal prefixes and q's starts with p's (`^me` covers `^me_x`), or, for a few
 * regexes of a simple shape, their automata show it. Anything else is not known to be covered.
 */
function covers(p: string, q: string, compared: boolean): boolean {
  if (p === q || MATCH_ALL.has(p)) return true;
  const lp = literalPrefix(p),
    lq = literalPrefix(q);
  if (lp !== undefined && lq !== undefined && p === `^${lp}` && lq.startsWith(lp)) return true;
  // Regexes of the simple shape pattern.ts compares as automata (a bounded walk each).
  return compared && regexInclusion(q, p)?.included === true;
}

/** Pairs of regexes compared as automata in one patternProperties comparison, at most. */
const COMPARED_PAIRS = 64;

/** Names built for regex p, a few per salt, for keys of witnesses. */
function namesFor(p: string): string[] {
  return [...Array(12).keys()].flatMap((salt) => {
    const base = stringForPattern(p, salt);
    return base === undefined ? [] : [base, `${base}z`, `z${base}`, `${base}0`, `${base}_`];
  });
}

const PLAIN_NAMES = ['b', 'z', 'x', 'm', 'q', 'zz', 'B', 'Z', '0', '9', '_', '-', 'é'];

/** Property names either side declares: a key standing for a pattern's names should be none of them. */
function declaredNames(sub: JsonObject, sup: JsonObject): Set<string> {
  const names = new Set<string>();
  for (const s of [sub, sup])
    if (isObject(s.properties)) for (const k of Object.keys(s.properties)) names.add(k);
  return names;
}

/**
 * A name regex q matches and none of `others` does, so it falls where only q decides, and, where
 * one exists, that neither side declares as a property (whose schema would also apply to it).
 */
function nameOnly(q: string, others: string[], declared: ReadonlySet<string>): string | undefined {
  const rs = others.map(regex);
  const fits = (key: string): boolean =>
    regex(q)?.test(key) === true && rs.every((r) => r !== undefined && !r.test(key));
  const names = [...namesFor(q), ...PLAIN_NAMES];
  return names.find((key) => fits(key) && !declared.has(key)) ?? names.find(fits);
}

/**
 * A name matching every given regex, for witnesses: tried among names built for each of them,
 * one that neither side declares as a property first (its schema would also apply to the key).
 */
function nameMatching(patternsToMatch: string[], declared: ReadonlySet<string>): string | undefined {
  const all = patternsToMatch.map(regex);
  if (all.some((r) => r === undefined)) return undefined;
  const fits = (key: string): boolean => all.every((r) => r?.test(key));
  const names = patternsToMatch.flatMap(namesFor);
  const found = names.find((key) => fits(key) && !declared.has(key)) ?? names.find(fits);
  if (found !== undefined || patternsToMatch.length < 2) return found;
  // Regexes that overlap only where one's start meets another's end (`^a` and `b$` both take
  // `ab`): names built for each, joined in either order.
  const heads = patternsToMatch.map((p) => namesFor(p).slice(0, JOINED));
  const joined = heads.reduce((acc, next) => acc.flatMap((x) => next.flatMap((y) => [x + y, y + x])));
  return joined.find((key) => fits(key) && !declared.has(key)) ?? joined.find(fits);
}

/** Names of each regex joined when no single name matches them all (their square is tried). */
const JOINED = 5;

/**
 * patternProperties. A name a regex of either side matches is declared (callers send it), so
 * every way the constraint on such a name can change is decided: the same regex on both sides is
 * compared schema to schema; a new regex must admit what the old side allowed for the names it
 * takes over (the old regexes it may overlap, and the old `additionalProperties` for the rest);
 * the names of a removed regex fall to the new `additionalProperties`. Only names that neither
 * side declared follow the open-objects policy.
 */
export function comparePatternProperties(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const a = patterns(sub),
    b = patterns(sup);
  const ak = Object.keys(a),
    bk = Object.keys(b);
  if (ak.length === 0 && bk.length === 0) return;
  const subAdd = (sub.additionalProperties ?? true) as Schema;
  const supAdd = (sup.additionalProperties ?? true) as Schema;
  const compared = ak.length * bk.length <= COMPARED_PAIRS;
  const declared = declaredNames(sub, sup);
  // A key standing for a regex's names is one no other regex of either side takes, where there
  // is one, and not a declared property: then only the schemas compared apply to it.
  const keyFor = (p: string, with_: string[] = []): string | undefined =>
    (with_.length > 0 ? nameMatching([p, ...with_], declared) : undefined) ??
    nameOnly(
      p,
      [...ak, ...bk].filter((x) => x !== p && !with_.includes(x)),
      declared,
    ) ??
    nameMatching([p], declared);
  for (const p of ak.filter((x) => Object.hasOwn(b, x))) {
    const key = keyFor(p);
    ctx.child(['patternProperties', p], sub, key ?? p).include(a[p] as Schema, b[p] as Schema);
  }
  for (const p of bk.filter((x) => !Object.hasOwn(a, x))) {
    // Names the new regex p takes: those an old regex q also matched must still be accepted.
    for (const q of ak) {
      if (disjoint(p, q)) continue;
      const key = keyFor(p, [q]) ?? p;
      ctx
        .childSides(['patternProperties', q], ['patternProperties', p], sub, key)
        .include(a[q] as Schema, b[p] as Schema);
    }
    // The rest were governed by the old additionalProperties (unless an old regex takes them all).
    if (ak.some((q) => covers(q, p, compared))) continue;
    if (subAdd === false) {
      ctx.emit(
        ctx.id('pattern-property-added-to-closed-object', 'pattern-property-removed-from-closed-object'),
        ['patternProperties', p],
        { pattern: p },
      );
    } else if (isObject(subAdd)) {
      // An explicit map ({} included) declared every name: its schema must fit the new regex's.
      const key = keyFor(p) ?? p;
      ctx
        .childSides(['additionalProperties'], ['patternProperties', p], sub, key)
        .include(subAdd, b[p] as Schema);
    } else if (!acceptsAll(b[p] as Schema)) {
      const key = keyFor(p);
      const local = (): JsonObject | undefined => {
        const base = subValue(ctx, sub, 0, 'object');
        const v = valueOutside(b[p] as Schema, ctx);
        return isObject(base) && key !== undefined && v !== undefined ? { ...base, [key]: v } : undefined;
      };
      ctx.emit(
        ctx.id('pattern-property-added', 'pattern-property-removed'),
        ['patternProperties', p],
        { pattern: p },
        local,
      );
    }
  }
  for (const q of ak.filter((x) => !Object.hasOwn(b, x))) {
    // Names only the removed regex q matched fall to the new additionalProperties; names another
    // new regex also matches are decided by it (compared above where both sides have it).
    if (bk.some((p) => covers(p, q, compared))) continue;
    const key = nameOnly(q, bk, declared) ?? keyFor(q);
    if (supAdd === false) {
      const local = (): JsonObject | undefined => {
        const base = subValue(ctx, sub, 0, 'object');
        const v = subValue(ctx, a[q] as Schema);
        return isObject(base) && key !== undefined && v !== undefined ? { ...base, [key]: v } : undefined;
      };
      ctx.emit(
        ctx.id('pattern-property-removed-from-closed-object', 'pattern-property-added-to-closed-object'),
        ['patternProperties', q],
        { pattern: q },
        local,
      );
    } else if (isObject(supAdd)) {
      ctx
        .childSides(['patternProperties', q], ['additionalProperties'], sub, key ?? q)
        .include(a[q] as Schema, supAdd);
    } else if (!acceptsAll(a[q] as Schema)) {
      ctx.emit(ctx.id('pattern-property-removed', 'pattern-property-added'), ['patternProperties', q], {
        pattern: q,
      });
    }
  }
}
