import type { Json, JsonObject, Schema } from './types.ts';
import { canonicalJson, compactTextIfWritable } from './json-text.ts';
import { member } from './own.ts';
import { mapJson, SKIP, WHOLE } from './json-walk.ts';

/** Below this many branches Ajv builds a oneOf quickly enough: it is handed over as written. */
const MIN_BRANCHES = 32;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const onlyObjects = (s: JsonObject): boolean =>
  s.type === 'object' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'object');

/** The values a branch allows at required property k (const, else enum), or undefined if it does not say. */
function tagValues(branch: Schema, k: string): Json[] | undefined {
  if (!isObject(branch) || !Array.isArray(branch.required) || !branch.required.includes(k)) return undefined;
  const at = isObject(branch.properties) ? member(branch.properties, k) : undefined;
  if (!isObject(at)) return undefined;
  return 'const' in at ? [at.const as Json] : Array.isArray(at.enum) ? at.enum : undefined;
}

/**
 * Whether every branch allows a finite set of values of its own (`const`, else `enum`) and no
 * value is allowed by two branches: a oneOf of consts, say. Equal JSON is the same value to
 * the validator (its equality is structural, key order aside), as it is to canonicalJson.
 */
function distinctValues(branches: readonly Schema[]): boolean {
  return noValueTwice(
    branches.map((b) =>
      !isObject(b)
        ? undefined
        : 'const' in b
          ? [b.const as Json]
          : Array.isArray(b.enum)
            ? b.enum
            : undefined,
    ),
  );
}

/** Whether every branch lists its values and no value is listed twice, in one branch or across two. */
function noValueTwice(lists: readonly (readonly Json[] | undefined)[]): boolean {
  const seen = new Set<string>();
  return lists.every((values) => {
    if (!values) return false;
    for (const v of values) {
      const key = canonicalJson(v);
      if (seen.has(key)) return false;
      seen.add(key);
    }
    return true;
  });
}

/**
 * Whether no value can match two branches: each allows its own values and no other branch's
 * (see distinctValues); or every branch admits objects only (or the schema around them does),
 * requires one property k, and allows values at k that no other branch allows. Then "exactly one branch matches" and "some branch matches" are the same test.
 */
function exclusiveBranches(node: JsonObject, branches: readonly Schema[]): boolean {
  if (distinctValues(branches)) return true;
  const first = branches[0];
  if (!isObject(first) || !isObject(first.properties)) return false;
  const objects = onlyObjects(node) || branches.every((b) => isObject(b) && onlyObjects(b));
  if (!objects) return false;
  return Object.keys(first.properties).some((k) => noValueTwice(branches.map((b) => tagValues(b, k))));
}

/**
 * The schema as handed to the validator: each large oneOf whose branches are exclusive (see
 * exclusiveBranches) written as the anyOf it is equivalent to. Ajv builds a oneOf as a chain
 * of else-branches each nested in the one before: building 1,000 branches takes about twice as
 * long as an anyOf, V8 takes six times as long to run it the first time, and past 2,000 it
 * overflows the stack. Validity is the same value for value; only the shape of the code changes.
 */
export function flatOneOfs(schema: Schema): Schema {
  if (!isObject(schema)) return schema;
  // A key is written as itself in the JSON text (usually written already, and wanted next): a
  // text without `oneOf` has nothing to flatten, and is settled without a walk.
  const text = compactTextIfWritable(schema);
  if (text !== undefined && !text.includes('"oneOf":')) return schema;
  // Every object below (but under the keywords whose values are data), each after the ones it
  // holds, and the objects of a list: copied only where something below changes (json-walk.ts),
  // so most schemas come back as they went in.
  return mapJson(
    schema,
    'object' as Place,
    (v, k, _, outer): Place | typeof SKIP => {
      if (outer === 'object') {
        if (k === 'enum' || k === 'const' || k === 'examples' || k === 'default') return SKIP;
        if (Array.isArray(v)) return 'list';
      }
      return isObject(v) ? 'object' : SKIP;
    },
    (v, _, place) => (place === 'object' ? flatOneOf(v as JsonObject) : v),
    WHOLE,
  ).value as Schema;
}

/** Where flatOneOfs stands: at an object, or at a list one holds. */
type Place = 'object' | 'list';

/** The node with its oneOf written as an anyOf, when large and exclusive. */
function flatOneOf(node: JsonObject): JsonObject {
  const branches = node.oneOf;
  if (
    Array.isArray(branches) &&
    branches.length >= MIN_BRANCHES &&
    !('anyOf' in node) &&
    exclusiveBranches(node, branches as Schema[])
  ) {
    const { oneOf: _oneOf, ...rest } = node;
    return { ...rest, anyOf: branches };
  }
  return node;
}
