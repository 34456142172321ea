import { compactText } from './json-text.ts';
import { appendPointer, findPlace, nearestPointer } from './pointer.ts';
import { ruleVerdict } from './rules.ts';
import type { CompareOptions, Direction, Finding, Json, Schema, SchemaComparison } from './types.ts';

/** Names every object inherits (constructor, toString, __proto__, …). */
const INHERITED: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

const QUOTED: readonly string[] = [...INHERITED].map((name) => JSON.stringify(name));

/** Keywords whose keys, or members, name properties of an object. */
const NAMING = ['properties', 'dependentRequired', 'dependentSchemas', 'dependencies'];

/**
 * Where a schema names a property every object inherits, as a JSON Pointer, or undefined.
 */
function inheritedName(schema: Schema): string | undefined {
  // Every name a schema holds is written in its JSON text as itself, in quotes (none of these
  // has a character JSON escapes): a text without any of them names none, and is not walked.
  const text = compactText(schema);
  if (!QUOTED.some((name) => text.includes(name))) return undefined;
  return findPlace(schema as Json, (node, at) => {
    for (const k of NAMING) {
      const map = node[k];
      if (map === null || typeof map !== 'object' || Array.isArray(map)) continue;
      for (const name of Object.keys(map)) if (INHERITED.has(name)) return appendPointer(at, k, name);
    }
    if (Array.isArray(node.required))
      for (const name of node.required)
        if (typeof name === 'string' && INHERITED.has(name)) return appendPointer(at, 'required');
    return undefined;
  });
}

/**
 * A compatible answer must hold for the validator too. Ajv 8 reads a property named as a member
 * every object inherits (`constructor`, `toString`) through the object's prototype: an optional
 * one is present on every object for it, and a `__proto__` one is never there. Where either side
 * names such a property, what Ajv accepts is not what the walk read, so a compatible answer is
 * `unknown` (`inherited-property-name`) instead. A break still needs Ajv to confirm its witness.
 */
export function besideInheritedNames(
  result: SchemaComparison,
  oldSchema: Schema,
  newSchema: Schema,
  direction: Direction,
  options: CompareOptions,
): SchemaComparison {
  if (result.verdict !== 'compatible') return result;
  const at = inheritedName(newSchema) ?? inheritedName(oldSchema);
  if (at === undefined) return result;
  const finding: Finding = {
    rule: 'inherited-property-name',
    verdict: ruleVerdict('inherited-property-name', direction, options.strictOpenObjects === true),
    pointer: nearestPointer(newSchema, at),
    args: {},
  };
  return { verdict: 'unknown', findings: [...result.findings, finding] };
}
