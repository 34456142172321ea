import { isObject, type Json } from './json.ts';
import { compileAt, readings } from './oracle.ts';
import { orient, type Direction } from './values.ts';

/**
 * The gate refuses some inputs outright, as its documentation says it must: a schema the
 * validator cannot compile, one whose `$ref` leads back to itself, one nested deeper than its
 * bound. `unknown` is then the required answer, not an undecided one; the fuzzer counts it
 * apart, and only when it finds the refusal justified by its own means (below).
 */
const REFUSALS = new Set(['schema-invalid', 'ref-unresolvable', 'ref-cycle', 'schema-too-deep']);

/** The depth bound the gate documents (its documentation, "Hostile input"), counted as it counts. */
export const DOCUMENTED_DEPTH = 256;

/** Nesting of objects and arrays (a scalar is 0, `{}` is 1), with an explicit stack. */
function jsonDepth(value: Json): number {
  let deepest = 0;
  const stack: [Json, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, level] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, level + 1);
    for (const member of Array.isArray(v) ? v : Object.values(v)) stack.push([member, level + 1]);
  }
  return deepest;
}

/** Values of every JSON type, to see whether a validator can be applied at all. */
const PROBES: Json[] = [null, true, 0, 1.5, '', 'a', [], [0], {}];

/** The schema's root and each of its definitions, as pointers. */
function parts(schema: Json): string[] {
  const out = [''];
  if (!isObject(schema)) return out;
  for (const key of ['$defs', 'definitions']) {
    const defs = schema[key];
    if (isObject(defs))
      for (const name of Object.keys(defs))
        out.push(`/${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }
  return out;
}

/** Whether Ajv, in some reading, throws applying the root or a definition of a side to a probe value. */
function validatorLoops(oldSchema: Json, newSchema: Json): boolean {
  for (const r of readings(oldSchema, newSchema))
    for (const [schema, dialect] of [
      [oldSchema, r.old],
      [newSchema, r.new],
    ] as const)
      for (const pointer of parts(schema)) {
        const c = compileAt(schema, dialect, pointer);
        if (c.ok && PROBES.some((v) => c.validate(v) === undefined)) return true;
      }
  return false;
}

/**
 * Whether an unknown answer is a refusal the fuzzer confirms: every reason is one of the
 * gate's input refusals, and the oracle sees the same by its own means: in no reading can Ajv
 * compile both sides (so it could not judge the pair either), or it throws applying one (a
 * loop), or a side nests deeper than the bound.
 */
export function justifiedRefusal(
  reasons: readonly string[],
  oldSchema: Json,
  newSchema: Json,
  direction: Direction,
): boolean {
  if (reasons.length === 0 || !reasons.every((r) => REFUSALS.has(r))) return false;
  if (reasons.includes('schema-too-deep'))
    return Math.max(jsonDepth(oldSchema), jsonDepth(newSchema)) > DOCUMENTED_DEPTH;
  if (orient(oldSchema, newSchema, direction).readings.length === 0) return true;
  return validatorLoops(oldSchema, newSchema);
}
