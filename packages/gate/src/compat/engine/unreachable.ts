import { canonicalJson } from '../hash.ts';
import { isObject } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Step } from '../generate/embed.ts';
import { intersectTypes } from './fold.ts';
import { resolveRef } from '../refs.ts';
import { SKIP, STOP, walkJson, WHOLE } from '../json-walk.ts';
import { ALL_TYPES, acceptsAll, typeSet } from './util.ts';
import { ANNOTATIONS, ONE_TYPE_KEYWORDS } from '../keywords.ts';

/** Schema nodes read at one place before the proof gives up (it then proves nothing more). */
const MAX_NODES = 256;
/** Schema nodes read over one whole proof, required properties' own schemas included. */
const MAX_WORK = 4_000;
/** Proofs tried in one comparison: each reads a bounded amount, and so do they all. */
const MAX_PROOFS = 200;
/** How deep the proof looks through required properties for one that can hold no value. */
const MAX_REQUIRED_DEPTH = 2;

interface Work {
  left: number;
  /** The document local `$ref`s resolve against; undefined when a nested `$id` rescopes them. */
  root: Schema | undefined;
  regexes: Map<string, RegExp | null>;
}

/**
 * Whether no value the schema accepts holds a value at the place a finding names, so whatever
 * the finding says of that place cannot happen: the schema is empty there (`{"type": "string",
 * "minLength": 3, "maxLength": 2}`, a property typed `string` here and `integer` in an allOf),
 * or a container on the way is (a required property that can hold nothing), or the way needs
 * an object where the schema admits none.
 *
 * It is a proof, so it reads only what applies to every value at each place whatever the value
 * holds: the node's own keywords, its allOf branches and the targets of its local `$ref`s, and,
 * below an object, the schemas of a property the walk followed by its name (its `properties`
 * entry, the patterns that match the name, or else `additionalProperties`). Anything else
 * (anyOf, oneOf, conditionals, a step taken for a whole class of names or items) is left out,
 * which can only make the schema it reads accept more, never less. Each place reads at most a
 * bounded number of nodes and the whole proof a bounded amount of work.
 */
export function unreachableProver(root: Schema): (trail: readonly Step[]) => boolean {
  // A nested `$id` rescopes the references below it; such a document is read without them.
  const refRoot = hasNestedId(root) ? undefined : root;
  const regexes = new Map<string, RegExp | null>();
  let proofs = MAX_PROOFS;
  return (trail) => proofs-- > 0 && unreachable(root, trail, { left: MAX_WORK, root: refRoot, regexes });
}

/**
 * Whether no value meets both schemas, as far as the keywords `possible` reads show (their
 * own, their allOf branches', the required properties'). Local `$ref`s are not followed: the
 * two may come from different documents, and leaving a node out only lets more values through.
 */
export function disjoint(a: Schema, b: Schema): boolean {
  const work: Work = { left: MAX_WORK, root: undefined, regexes: new Map() };
  return !possible(conjuncts([a, b], work), undefined, work, 0);
}

function unreachable(root: Schema, trail: readonly Step[], work: Work): boolean {
  let here = conjuncts([root], work);
  for (const step of trail) {
    if (step.seg === undefined) continue;
    const need = typeof step.seg === 'string' ? 'object' : 'array';
    if (!possible(here, need, work, 0)) return true;
    if (!step.named || typeof step.seg !== 'string') return false;
    here = propertyConjuncts(here, step.seg, work);
  }
  return !possible(here, undefined, work, 0);
}

/** The nodes that apply to every value where these apply: themselves, their allOf branches, their `$ref` targets. */
function conjuncts(start: readonly Schema[], work: Work): Schema[] {
  const out: Schema[] = [];
  const seen = new Set<Schema>();
  const stack = [...start];
  while (stack.length > 0 && out.length < MAX_NODES && work.left > 0) {
    const node = stack.pop() as Schema;
    if (seen.has(node)) continue;
    seen.add(node);
    work.left--;
    out.push(node);
    if (!isObject(node)) continue;
    if (Array.isArray(node.allOf))
      for (const b of node.allOf) if (typeof b === 'boolean' || isObject(b)) stack.push(b);
    if (work.root !== undefined && typeof node.$ref === 'string') {
      const target = resolveRef(work.root, node.$ref);
      if (target) stack.push(target.schema);
    }
  }
  return out;
}

/** Whether any object below the root declares `$id` (json-walk.ts, any depth). */
function hasNestedId(root: Schema): boolean {
  if (!isObject(root)) return false;
  const end = walkJson(
    root,
    null,
    (v, _, depth) => {
      if (v === null || typeof v !== 'object') return SKIP;
      return depth > 0 && !Array.isArray(v) && '$id' in v ? STOP : null;
    },
    WHOLE,
  );
  return end === 'stopped';
}

/** The schemas every value of property `name` meets, in every node that applies to the object. */
function propertyConjuncts(nodes: readonly Schema[], name: string, work: Work): Schema[] {
  const next: Schema[] = [];
  for (const node of nodes) {
    if (!isObject(node)) continue;
    let declared = false;
    const props = node.properties;
    if (isObject(props) && Object.hasOwn(props, name)) {
      declared = true;
      next.push(props[name] as Schema);
    }
    const patterns = node.patternProperties;
    if (isObject(patterns)) {
      for (const [p, s] of Object.entries(patterns)) {
        // A pattern the proof cannot test may govern the name: additionalProperties is then not read.
        const matches = work.left-- > 0 ? matchesName(p, name, work) : undefined;
        if (matches !== false) declared = true;
        if (matches === true) next.push(s as Schema);
      }
    }
    const extra = node.additionalProperties;
    if (!declared && (typeof extra === 'boolean' || isObject(extra))) next.push(extra);
  }
  return conjuncts(next, work);
}

/** Whether a regex (as the validator reads it, with the `u` flag) matches a name; undefined when it cannot tell. */
function matchesName(pattern: string, name: string, work: Work): boolean | undefined {
  let re = work.regexes.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = null;
    }
    work.regexes.set(pattern, re);
  }
  return re === null ? undefined : re.test(name);
}

/** A number bound: the value and whether it is exclusive. */
interface Bound {
  at: number;
  open: boolean;
}

function numericRange(nodes: readonly JsonObject[]): { lo?: Bound; hi?: Bound } {
  let lo: Bound | undefined, hi: Bound | undefined;
  const tighterLo = (b: Bound): void => {
    if (!lo || b.at > lo.at || (b.at === lo.at && b.open)) lo = b;
  };
  const tighterHi = (b: Bound): void => {
    if (!hi || b.at < hi.at || (b.at === hi.at && b.open)) hi = b;
  };
  for (const n of nodes) {
    if (typeof n.minimum === 'number') tighterLo({ at: n.minimum, open: false });
    if (typeof n.exclusiveMinimum === 'number') tighterLo({ at: n.exclusiveMinimum, open: true });
    if (typeof n.maximum === 'number') tighterHi({ at: n.maximum, open: false });
    if (typeof n.exclusiveMaximum === 'number') tighterHi({ at: n.exclusiveMaximum, open: true });
  }
  return { lo, hi };
}

function numbersPossible(nodes: readonly JsonObject[], integer: boolean): boolean {
  const { lo, hi } = numericRange(nodes);
  if (!lo || !hi) return true;
  if (!integer) return lo.at < hi.at || (lo.at === hi.at && !lo.open && !hi.open);
  const first = Number.isInteger(lo.at) ? (lo.open ? lo.at + 1 : lo.at) : Math.ceil(lo.at);
  const last = Number.isInteger(hi.at) ? (hi.open ? hi.at - 1 : hi.at) : Math.floor(hi.at);
  return first <= last;
}

function largest(nodes: readonly JsonObject[], key: string): number {
  let m = 0;
  for (const n of nodes) {
    const v = n[key];
    if (typeof v === 'number' && v > m) m = v;
  }
  return m;
}

function smallest(nodes: readonly JsonObject[], key: string): number {
  let m = Infinity;
  for (const n of nodes) {
    const v = n[key];
    if (typeof v === 'number' && v < m) m = v;
  }
  return m;
}

function requiredNames(nodes: readonly JsonObject[]): Set<string> {
  const names = new Set<string>();
  for (const n of nodes)
    if (Array.isArray(n.required)) for (const r of n.required) if (typeof r === 'string') names.add(r);
  return names;
}

/** Whether some object meets every node, as far as counts and required properties show. */
function objectsPossible(nodes: readonly JsonObject[], work: Work, depth: number): boolean {
  const required = requiredNames(nodes);
  if (largest(nodes, 'minProperties') > smallest(nodes, 'maxProperties')) return false;
  if (required.size > smallest(nodes, 'maxProperties')) return false;
  if (depth >= MAX_REQUIRED_DEPTH) return true;
  for (const name of required) {
    if (work.left <= 0) return true;
    if (!possible(propertyConjuncts(nodes, name, work), undefined, work, depth + 1)) return false;
  }
  return true;
}

/** Whether some value of type t meets every node, as far as the keywords read show. */
function typePossible(t: string, nodes: readonly JsonObject[], work: Work, depth: number): boolean {
  switch (t) {
    case 'string':
      return largest(nodes, 'minLength') <= smallest(nodes, 'maxLength');
    case 'number':
    case 'integer':
      return numbersPossible(nodes, t === 'integer');
    case 'array':
      return largest(nodes, 'minItems') <= smallest(nodes, 'maxItems');
    case 'object':
      return objectsPossible(nodes, work, depth);
    default:
      return true;
  }
}

/** The instance type of a JSON value, integers told apart as the validator tells them. */
function typeOfValue(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Whether a value of a finite set may meet every node: only what certainly rejects it counts. */
function memberPossible(v: Json, nodes: readonly JsonObject[]): boolean {
  if (typeof v === 'number') {
    const { lo, hi } = numericRange(nodes);
    if (lo && (v < lo.at || (lo.open && v === lo.at))) return false;
    if (hi && (v > hi.at || (hi.open && v === hi.at))) return false;
  } else if (typeof v === 'string') {
    const length = [...v].length;
    if (length < largest(nodes, 'minLength') || length > smallest(nodes, 'maxLength')) return false;
  } else if (Array.isArray(v)) {
    if (v.length < largest(nodes, 'minItems') || v.length > smallest(nodes, 'maxItems')) return false;
  } else if (isObject(v)) {
    const count = Object.keys(v).length;
    if (count < largest(nodes, 'minProperties') || count > smallest(nodes, 'maxProperties')) return false;
    for (const r of requiredNames(nodes)) if (!Object.hasOwn(v, r)) return false;
  }
  return true;
}

/** The members every `const` and `enum` of the nodes allow, or undefined when none limits them. */
function finiteMembers(nodes: readonly JsonObject[]): Json[] | undefined {
  let members: Map<string, Json> | undefined;
  for (const n of nodes) {
    const own = 'const' in n ? [n.const as Json] : Array.isArray(n.enum) ? (n.enum as Json[]) : undefined;
    if (own === undefined) continue;
    const next = new Map<string, Json>();
    for (const v of own) {
      const key = canonicalJson(v);
      if (!members || members.has(key)) next.set(key, v);
    }
    members = next;
    if ('const' in n && Array.isArray(n.enum)) {
      const allowed = new Set((n.enum as Json[]).map((v) => canonicalJson(v)));
      for (const key of [...members.keys()]) if (!allowed.has(key)) members.delete(key);
    }
  }
  return members ? [...members.values()] : undefined;
}

/**
 * Types a `not` excludes: those of a `not` of only a `type` (integers stay when only integer is
 * excluded from number), and every type but one for a `not` of keywords that constrain only
 * that type (`{"not": {"required": ["a"]}}` excludes every value that is not an object, since
 * all of them pass `required`).
 */
function excludedTypes(nodes: readonly JsonObject[]): Set<string> {
  const out = new Set<string>();
  for (const n of nodes) {
    const not = n.not;
    if (!isObject(not)) continue;
    const keys = Object.keys(not).filter((k) => !ANNOTATIONS.has(k));
    if (keys.length > 0 && keys.every((k) => k === 'type')) for (const t of typeSet(not) ?? []) out.add(t);
    const only = (Object.keys(ONE_TYPE_KEYWORDS) as (keyof typeof ONE_TYPE_KEYWORDS)[]).find(
      (t) => keys.length > 0 && keys.every((k) => ONE_TYPE_KEYWORDS[t].has(k)),
    );
    if (only) for (const t of ALL_TYPES) if (t !== only) out.add(t);
  }
  return out;
}

/** Whether values of instance type t (`integer` for a whole number) pass the `type`s and the `not`s of a type. */
function typeAllowed(t: string, types: Set<string> | undefined, excluded: Set<string>): boolean {
  if (t === 'integer') {
    if (excluded.has('integer') || excluded.has('number')) return false;
    return !types || types.has('integer') || types.has('number');
  }
  return !excluded.has(t) && (!types || types.has(t));
}

/**
 * Whether some value may meet every node (and be of type `need`): false only when the keywords
 * read show that none can.
 */
function possible(
  nodes: readonly Schema[],
  need: 'object' | 'array' | undefined,
  work: Work,
  depth: number,
): boolean {
  if (nodes.some((n) => n === false)) return false;
  const objects = nodes.filter(isObject);
  if (objects.some((n) => isObject(n.not) && acceptsAll(n.not))) return false;
  let types = need ? new Set<string>([need]) : undefined;
  for (const n of objects) types = intersectTypes(types, typeSet(n));
  const excluded = excludedTypes(objects);
  const members = finiteMembers(objects);
  if (members !== undefined)
    return members.some((v) => typeAllowed(typeOfValue(v), types, excluded) && memberPossible(v, objects));
  // A number that is no integer survives `not: {type: integer}`: only `number` itself removes numbers.
  const candidates = [...(types ?? ALL_TYPES)].filter((t) => typeAllowed(t, types, excluded));
  return candidates.some((t) => typePossible(t, objects, work, depth));
}
