import { keywordsWhere, type Dialect } from '../keywords.ts';
import { MAX_REF_HOPS } from '../refs.ts';
import type { Json, JsonObject, Schema } from '../types.ts';

/**
 * OpenAPI's `discriminator`, as Ajv 8 reads it. With default options (the gate's reading) Ajv
 * ignores it. A client may turn Ajv's `discriminator` option on; Ajv then refuses to compile the
 * schema unless: `propertyName` is a string; there is no `mapping`; a `oneOf` stands beside it;
 * every branch of the oneOf (a branch that is only a `$ref` followed to its target) has
 * `properties[propertyName]` with a truthy `const` or an `enum`; the tag values so found are
 * strings, each naming one branch; and the tag is required beside the discriminator or in every
 * branch.
 *
 * When it compiles, Ajv skips the oneOf and lets the discriminator choose: an object whose tag is
 * a string naming branch i is valid when branch i accepts it; any other object is refused. The
 * oneOf reading agrees on every object: a branch that accepts an object requires its tag (or the
 * parent does, and refuses it first) and pins it to one of that branch's own values, which name no
 * other branch, so at most one branch accepts it — the one its tag names — and exactly one does
 * precisely when that branch accepts it. On anything else the readings part: the discriminator
 * applies to objects only and the oneOf is skipped, so a non-object passes there whatever the
 * branches say, and only the keywords beside them judge it. The two agree everywhere when the
 * parent itself refuses every non-object (`type: "object"`, not nullable).
 */
export type DiscriminatorReading =
  | { kind: 'absent' }
  /** It compiles; `everyValue` when it also reads non-objects as the oneOf does (the parent refuses them). */
  | { kind: 'holds'; everyValue: boolean }
  /** Ajv refuses it with the option on: the condition that fails. */
  | { kind: 'refused'; problem: string };

/** The keywords ajv-formats adds beside the formats themselves: bounds on a formatted value. */
const FORMAT_BOUNDS = ['formatMaximum', 'formatMinimum', 'formatExclusiveMaximum', 'formatExclusiveMinimum'];

/**
 * Keywords Ajv compiles into code (its `RULES.all`) in each dialect: a branch holding `$ref` and
 * any of these is read as itself, not followed. Text, identifiers other than the dynamic anchors,
 * content annotations and unknown keywords do not count; `$comment` does, and so do draft-04's
 * `id`, `nullable`, the `x-mcp-header` keyword the gate's validator is given, and the format
 * bounds ajv-formats adds to it (FORMAT_BOUNDS).
 */
const COMPILED: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  'draft-07': compiledIn('draft-07'),
  '2019-09': compiledIn('2019-09'),
  '2020-12': compiledIn('2020-12'),
};

function compiledIn(dialect: Dialect): ReadonlySet<string> {
  const own = keywordsWhere(
    (k) => ['applicator', 'assertion', 'reference'].includes(k.role) && k.dialects.includes(dialect),
  );
  const dynamic =
    dialect === 'draft-07' ? [] : keywordsWhere((k) => k.dynamic === true && k.role === 'identifier');
  return new Set([...own, ...dynamic, '$comment', 'id', 'x-mcp-header', ...FORMAT_BOUNDS]);
}

/** The keywords a branch is compiled with, besides `$ref`, in Ajv's sense (exported for its test). */
export function compiledKeywords(dialect: Dialect): ReadonlySet<string> {
  return COMPILED[dialect];
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * How Ajv with its `discriminator` option reads the discriminator written in `node` (the schema
 * object it stands in, as written), `resolve` giving a local reference's target.
 */
export function readDiscriminator(
  node: JsonObject,
  dialect: Dialect,
  resolve: (ref: string) => Schema | undefined,
): DiscriminatorReading {
  if (!Object.hasOwn(node, 'discriminator')) return { kind: 'absent' };
  const problem = refusal(node, dialect, resolve);
  if (problem !== undefined) return { kind: 'refused', problem };
  return { kind: 'holds', everyValue: refusesNonObjects(node) };
}

function refusal(
  node: JsonObject,
  dialect: Dialect,
  resolve: (ref: string) => Schema | undefined,
): string | undefined {
  const d = node.discriminator;
  if (!isObject(d)) return 'the discriminator is not an object';
  const tag = d.propertyName;
  if (typeof tag !== 'string') return 'its propertyName is not a string';
  // Ajv tests these two for truth, as written.
  if (d.mapping) return 'it has a mapping, which Ajv does not support';
  const { oneOf } = node;
  if (!oneOf) return 'no oneOf stands beside it';
  if (!Array.isArray(oneOf)) return 'oneOf is not a list';
  const taken = new Set<string>();
  let everyBranch = true;
  for (let i = 0; i < oneOf.length; i++) {
    const branch = followed(oneOf[i] as Json, dialect, resolve);
    if (typeof branch === 'string') return `branch ${i}: ${branch}`;
    const prop = isObject(branch) && isObject(branch.properties) ? branch.properties[tag] : undefined;
    // Ajv asks `typeof == "object"`, which null passes; it then finds neither const nor enum.
    if (!isObject(prop) && prop !== null) return `branch ${i} has no properties/${tag}`;
    everyBranch &&= requires(branch as JsonObject, tag);
    const values = prop?.const ? [prop.const] : prop?.enum ? prop.enum : undefined;
    if (values === undefined) return `properties/${tag} of branch ${i} has neither a const nor an enum`;
    if (!Array.isArray(values)) return `the enum of properties/${tag} in branch ${i} is not a list`;
    for (const v of values) {
      if (typeof v !== 'string' || taken.has(v) || INHERITED.has(v))
        return `the values of ${tag} are not unique strings`;
      taken.add(v);
    }
  }
  return requires(node, tag) || everyBranch
    ? undefined
    : `${tag} is required neither beside it nor in every branch`;
}

/** Ajv keeps tag values as keys of a plain object, where the names every object inherits are taken already. */
const INHERITED: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

function requires(node: JsonObject, tag: string): boolean {
  return Array.isArray(node.required) && node.required.includes(tag);
}

/** A branch, or what its `$ref` leads to when it holds nothing else Ajv compiles; a string says why not. */
function followed(
  branch: Json,
  dialect: Dialect,
  resolve: (ref: string) => Schema | undefined,
): Json | string {
  let at = branch;
  for (let hops = 0; isObject(at) && typeof at.$ref === 'string'; hops++) {
    if (Object.keys(at).some((k) => k !== '$ref' && COMPILED[dialect].has(k))) return at;
    if (hops > MAX_REF_HOPS) return `$ref ${at.$ref} leads round in a loop`;
    const target = resolve(at.$ref);
    if (target === undefined) return `$ref ${at.$ref} cannot be resolved`;
    at = target;
  }
  return at;
}

/** Whether the parent's own type refuses every value that is not an object. */
function refusesNonObjects(node: JsonObject): boolean {
  const t = node.type;
  const objectOnly = t === 'object' || (Array.isArray(t) && t.length > 0 && t.every((x) => x === 'object'));
  return objectOnly && node.nullable !== true;
}

/** What a change at a node whose sides hold discriminators amounts to. */
export type DiscriminatorChange =
  { rule: 'none' } | { rule: 'discriminator-changed' } | { rule: 'discriminator-ambiguous'; problem: string };

/**
 * Judges the discriminators of a pair (`sub` must be included in `sup`) for a client that
 * applies them, given whether the discriminator objects are the same and whether the keywords
 * beside the oneOf that can judge a non-object are (`sameBeside`). The oneOf reading is judged
 * by the walk as usual; this says whether that judgement holds for the discriminator reading
 * too.
 *
 * - A side Ajv refuses leaves two readings of one schema: unknown, naming the condition. Only
 *   when both sides are refused alike (the same discriminator) has nothing changed for a client
 *   that applies it, which compiles neither.
 * - Where both compile (or are absent), objects are read as the oneOf reads them. A side that lets
 *   non-objects through judges them by the keywords beside the oneOf alone: from such a `sub`,
 *   the same keywords in a `sup` that lets them through too keep every one of them; anything else
 *   is unknown. A `sub` that reads non-objects as its oneOf is included wherever its oneOf is,
 *   since a `sup` that lets them through only accepts more.
 */
export function judgeDiscriminators(
  sub: DiscriminatorReading,
  sup: DiscriminatorReading,
  sameDiscriminator: boolean,
  sameBeside: boolean,
): DiscriminatorChange {
  if (sub.kind === 'refused' || sup.kind === 'refused') {
    if (sub.kind === 'refused' && sup.kind === 'refused' && sameDiscriminator) return { rule: 'none' };
    const problem = sup.kind === 'refused' ? sup.problem : (sub as { problem: string }).problem;
    return { rule: 'discriminator-ambiguous', problem };
  }
  if (sub.kind === 'holds' && !sub.everyValue && !(sup.kind === 'holds' && !sup.everyValue && sameBeside))
    return {
      rule: 'discriminator-ambiguous',
      problem: 'it applies to objects only, and a value of another type is judged without the oneOf',
    };
  return sameDiscriminator ? { rule: 'none' } : { rule: 'discriminator-changed' };
}
