// What an agent forms its calls from: the names a tool's inputSchema declares at its top level.
// By set semantics a name may vanish from an open object (every old call still passes); an agent
// that reads the schema to call the tool no longer knows the argument exists. A release built
// with zod 4 served `{"type":"object"}` for every tool this way, and passed as compatible.
import { isObject } from './generate/merge.ts';
import { toPointer } from './pointer.ts';
import type { Finding, Json } from './types.ts';

function declared(schema: Json | undefined): string[] {
  return isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : [];
}

/**
 * A removal of one of the old top-level properties, at the place the engine gives it: the
 * property itself, or (absent from the new schema) the nearest place there, `properties` or the root.
 */
function isTopLevelRemoval(f: Finding, old: readonly string[]): boolean {
  const k = f.args.property;
  if (f.rule !== 'property-removed-from-open-object' || typeof k !== 'string' || !old.includes(k))
    return false;
  return ['/inputSchema', '/inputSchema/properties', toPointer(['inputSchema', 'properties', k])].includes(
    f.pointer,
  );
}

/**
 * The input findings of one tool, with a top-level property removed from an open object told
 * apart as `argument-removed`; when every declared argument is gone and none is declared in
 * their place, one `all-arguments-removed` (unknown) stands for them all.
 */
export function argumentFindings(
  before: Json | undefined,
  after: Json | undefined,
  findings: readonly Finding[],
): Finding[] {
  const old = declared(before);
  if (old.length === 0) return [...findings];
  const told = findings.map((f) =>
    isTopLevelRemoval(f, old) ? { ...f, rule: 'argument-removed' as const } : f,
  );
  // A schema that is `false` (or not an object) is judged by its own rule; an absent one is empty.
  const emptied = (after === undefined || isObject(after)) && declared(after).length === 0;
  if (!emptied) return told;
  return [
    ...told.filter((f) => f.rule !== 'argument-removed'),
    {
      rule: 'all-arguments-removed' as const,
      verdict: 'unknown',
      pointer: '/inputSchema',
      args: { properties: old },
    },
  ];
}
