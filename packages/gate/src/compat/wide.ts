import { SCHEMA_BOUNDS } from './bounds.ts';
import { definitionRef, SCOPED } from './definitions.ts';
import { fnv1a } from './hash.ts';
import { compactText } from './json-text.ts';
import { SKIP, STOP, walkJson, WHOLE } from './json-walk.ts';
import { BUILDS, holdsOf, type BuildCheck } from './keywords.ts';
import { setMember } from './own.ts';
import type { Json, JsonObject } from './types.ts';

/**
 * A wide object handed to the validator as a shell and its leaves. Ajv builds a schema into
 * code for every subschema it holds, whether a value ever reaches it or not: 10,000 properties
 * cost most of two seconds to build, though a comparison validates a few values, each holding
 * a few of them. Here the root's `properties` members that can be built apart (its leaves) are
 * taken out of the document, which is built without them (its shell), and the leaves are built
 * the first time a value holds one of their properties:
 *
 * - where most leaves repeat another's text (`{"type": "string"}` 10,000 times), each leaf alone,
 *   once per content, whatever its name;
 * - elsewhere in runs of a few (see RUN), each built as `properties` of its leaves: a value of a
 *   few members builds a few runs, and one holding half the properties (a sample) builds them
 *   all, at the cost of building the document whole (one by one, 10,000 distinct leaves would
 *   cost a third more). A run is cut where a hash of a name says, not by position, so the two
 *   sides of a change share every run but the one a changed leaf stands in.
 *
 * This is the same validator, because:
 *
 * - a document builds iff its shell builds: a leaf moves only when no valid value of its
 *   keywords can make Ajv's build fail (see BUILDS in keywords.ts: the document is first checked
 *   against its meta-schema, then each keyword of the leaf, at every depth, is one Ajv builds
 *   whatever its valid value, or one whose value passes the check that Ajv's build makes: a
 *   pattern it compiles, a non-empty enum);
 * - a value is valid iff the shell accepts it and each moved leaf accepts the value's member of
 *   its name: `properties` applies each member to its own key and to nothing else, and Ajv
 *   applies it where `value[name] !== undefined` (an inherited member too, which is read the
 *   same way here), to objects only, never to `__proto__` (which never moves);
 * - nothing else in the document can see a leaf go: the names stay where a sibling reads them
 *   (`additionalProperties`), a leaf holds no `$` keyword (nothing in it places, names or finds a
 *   schema, and it finds nothing outside itself), every reference of the document leads into the
 *   root's definitions (none into a leaf, none to the root, whose shell lacks them), nothing
 *   scopes references and no `unevaluated*` keyword reads what `properties` evaluated.
 *
 * A document with fewer movable leaves than WIDE_ENOUGH is built whole, exactly as before.
 */
export const WIDE_ENOUGH = 200;

/** What the validator does with a keyword, asked of the instance that builds the document. */
export interface BuildOracle {
  /** Whether it builds code for a keyword: one it does not know, it ignores. */
  knows(keyword: string): boolean;
  /** Whether it compiles a pattern, as its build of `pattern` and `patternProperties` would. */
  compiles(pattern: string): boolean;
}

export interface WideSplit {
  /** The document without its moved leaves (each left as `true` where a sibling reads the names). */
  shell: JsonObject;
  /** The moved leaves, by name, in the order `properties` lists them (Ajv's order), in runs. */
  runs: [name: string, leaf: Json][][];
  /** Whether each run is one leaf, built alone (most leaves repeat another's text). */
  alone: boolean;
  /** Whether every member of `properties` moved but those Ajv builds no code for (`true`, `__proto__`). */
  everyMember: boolean;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The keys refersSteadily looks for, as they stand in JSON text. */
const WATCHED: readonly string[] = [...SCOPED, '$ref', 'unevaluatedProperties', 'unevaluatedItems'].map((k) =>
  JSON.stringify(k),
);

/** The root keywords the shell may hold beside `properties`; any other `$` keyword keeps the document whole. */
const ROOT_DOLLARS: ReadonlySet<string> = new Set(['$schema', '$id', '$comment', '$defs']);

/**
 * The document as a shell and its leaves (see the top of this file), or undefined when it is
 * to be built whole: too few leaves move, or something in it could see one go.
 */
export function splitWide(root: Json, oracle: BuildOracle): WideSplit | undefined {
  if (!isObject(root) || !isObject(root.properties)) return undefined;
  const props = root.properties;
  const names = Object.keys(props);
  if (names.length < WIDE_ENOUGH) return undefined;
  for (const k of Object.keys(root)) if (k.startsWith('$') && !ROOT_DOLLARS.has(k)) return undefined;
  // A key is written as itself in the JSON text: a leaf whose text holds no `"$` holds no `$`
  // keyword, and a document whose text names nothing that refers, scopes or reads evaluated
  // names needs no walk to say so. Most wide documents are settled without a walk.
  const text = compactText(root);
  const steady = !WATCHED.some((k) => text.includes(k));
  const moved = new Set<string>();
  const texts = new Set<string>();
  // `true` is built into no code at all: it stays (so a shell that keeps the names as `true`
  // is not split again).
  for (const name of names) {
    const leaf = props[name] as Json;
    if (name === '__proto__' || leaf === true) continue;
    const leafText = compactText(leaf);
    if (!buildsApart(leaf, oracle, leafText.includes('"$'))) continue;
    moved.add(name);
    texts.add(leafText);
  }
  if (moved.size < WIDE_ENOUGH) return undefined;
  if (!steady && !refersSteadily(root, moved)) return undefined;
  // Only `additionalProperties` reads the names `properties` declares (`unevaluatedProperties`
  // keeps the document whole): elsewhere a moved leaf leaves no trace in the shell.
  const namesRead = root.additionalProperties !== undefined;
  const alone = texts.size * 2 <= moved.size;
  const shellProps: JsonObject = {};
  const runs: [string, Json][][] = [];
  let run: [string, Json][] = [];
  for (const name of names) {
    if (!moved.has(name)) setMember(shellProps, name, props[name] as Json);
    else {
      run.push([name, props[name] as Json]);
      if (namesRead) setMember(shellProps, name, true);
      if (alone || fnv1a(name) % RUN === 0 || run.length >= MAX_RUN) {
        runs.push(run);
        run = [];
      }
    }
  }
  if (run.length > 0) runs.push(run);
  const shell: JsonObject = { ...root, properties: shellProps };
  const everyMember = names.every((n) => n === '__proto__' || props[n] === true || moved.has(n));
  return { shell, runs, alone, everyMember };
}

/** Leaves a run holds on average: a leaf whose name hashes to 0 modulo this ends one. */
const RUN = 16;
/** No run holds more leaves than this, whatever the hashes say. */
const MAX_RUN = 64;

/**
 * Whether every reference outside the moved leaves leads into the root's definitions, nothing
 * there scopes references (a root `$id` aside: the validator is given the document without it)
 * and no `unevaluated*` keyword is read. Keys are looked at wherever they stand, data included:
 * a `$ref` inside an `enum` keeps the document whole, which costs time and nothing else.
 */
function refersSteadily(root: JsonObject, moved: ReadonlySet<string>): boolean {
  let steady = true;
  const end = walkJson<'root' | 'props' | 'other'>(
    root,
    'root',
    (value, key, depth, where) => {
      if (where === 'props' && typeof key === 'string' && moved.has(key)) return SKIP;
      if (!isObject(value)) return depth === 0 ? 'root' : 'other';
      for (const k of Object.keys(value)) {
        if (SCOPED.has(k) && !(depth === 0 && k === '$id')) steady = false;
        else if (k === 'unevaluatedProperties' || k === 'unevaluatedItems') steady = false;
        else if (k === '$ref') {
          const ref = value[k];
          if (typeof ref !== 'string' || definitionRef(ref) === undefined) steady = false;
        }
      }
      if (!steady) return STOP;
      return depth === 0 ? 'root' : where === 'root' && key === 'properties' ? 'props' : 'other';
    },
    SCHEMA_BOUNDS,
  );
  return steady && end === 'complete';
}

/**
 * Whether the validator builds a schema on its own exactly as it builds it in its document, and
 * without failing whatever valid values its keywords hold: no `$` keyword anywhere in it (but
 * `$comment`), and each keyword at every depth passes its check in BUILDS. `dollars` false says
 * the caller knows the schema holds no key starting with `$`.
 */
export function buildsApart(schema: Json, oracle: BuildOracle, dollars = true): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isObject(schema) || (dollars && holdsDollarKey(schema))) return false;
  // Each schema's keywords are checked before the schemas they hold (json-walk.ts, any depth).
  const end = walkJson(
    schema,
    'one' as BuildPlace,
    (v, k, _, outer): BuildPlace | typeof SKIP | typeof STOP => {
      if (outer === 'schema') {
        const holds = holdsOf(k as string);
        if (holds === 'map') return isObject(v) ? 'map' : SKIP;
        if (holds === 'list' || (holds === 'one-or-list' && Array.isArray(v))) return 'list';
        if (holds === undefined) return SKIP;
      } else if (outer === 'map' && (Array.isArray(v) || typeof v === 'string')) {
        // `dependencies` holds lists of names beside schemas: only the schemas are walked.
        return SKIP;
      }
      if (typeof v === 'boolean') return SKIP;
      // Not a schema where one stands: the meta-schema would refuse it, or a keyword the validator
      // ignores holds it (nothing is known of it then).
      if (!isObject(v)) return STOP;
      for (const key of Object.keys(v)) {
        const x = v[key] as Json;
        if (
          oracle.knows(key) &&
          !passes(Object.hasOwn(BUILDS, key) ? (BUILDS[key] as BuildCheck) : 'may-fail', x, v, oracle)
        )
          return STOP;
        if (holdsOf(key) === 'list' && !Array.isArray(x)) return STOP;
      }
      return 'schema';
    },
    WHOLE,
  );
  return end !== 'stopped';
}

/** Where buildsApart stands: at a schema, or at one schema, a map or a list of them that a keyword holds. */
type BuildPlace = 'schema' | 'one' | 'map' | 'list';

/** Whether a keyword's value passes the check its build makes (see BuildCheck). */
function passes(check: BuildCheck, value: Json, schema: JsonObject, oracle: BuildOracle): boolean {
  switch (check) {
    case 'builds':
      return true;
    case 'regex':
      return typeof value === 'string' && oracle.compiles(value);
    case 'regex-keys':
      return isObject(value) && Object.keys(value).every((p) => oracle.compiles(p));
    case 'non-empty':
      return Array.isArray(value) && value.length > 0;
    case 'nullable': {
      if (typeof value !== 'boolean') return false;
      const t = schema.type;
      const types = Array.isArray(t) ? t : t ? [t] : [];
      return types.includes('null') ? value : types.length > 0;
    }
    case 'string':
      return typeof value === 'string';
    case 'places':
    case 'may-fail':
      return false;
  }
}

/** Whether a key starting with `$` (but `$comment`) stands anywhere in a value, data included. */
function holdsDollarKey(value: Json): boolean {
  let found = false;
  const end = walkJson(
    value,
    undefined,
    (v) => {
      if (!isObject(v)) return undefined;
      for (const k of Object.keys(v))
        if (k.startsWith('$') && k !== '$comment') {
          found = true;
          return STOP;
        }
      return undefined;
    },
    SCHEMA_BOUNDS,
  );
  return found || end !== 'complete';
}
