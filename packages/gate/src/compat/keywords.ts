import type { Json, JsonObject } from './types.ts';

/** Keywords that are text for a reader: they say nothing of validity, nor of where references lead. */
export const TEXT_KEYWORDS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Keywords that never change which values validate. */
export const ANNOTATIONS = new Set([
  ...TEXT_KEYWORDS,
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'x-mcp-header',
  '$schema',
  '$id',
  '$defs',
  'definitions',
]);

/**
 * Keywords that constrain the values of one instance type only: any value of another type passes
 * them (`{"required": ["a"]}` accepts every string). Formats are left out: some constrain
 * numbers, most strings.
 */
export const ONE_TYPE_KEYWORDS: Readonly<
  Record<'object' | 'array' | 'string' | 'number', ReadonlySet<string>>
> = {
  object: new Set([
    'required',
    'properties',
    'patternProperties',
    'additionalProperties',
    'minProperties',
    'maxProperties',
    'propertyNames',
    'dependentRequired',
    'dependentSchemas',
    'dependencies',
    'unevaluatedProperties',
  ]),
  array: new Set([
    'items',
    'prefixItems',
    'additionalItems',
    'contains',
    'minContains',
    'maxContains',
    'minItems',
    'maxItems',
    'uniqueItems',
    'unevaluatedItems',
  ]),
  string: new Set(['minLength', 'maxLength', 'pattern']),
  number: new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
};

/** Keywords the gate analyses. Anything else that changes makes the verdict unknown. */
export const ANALYSED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'then',
  'else',
]);

/**
 * Keywords whose value holds subschemas: a map of schemas (1), a list of schemas (2), or one
 * schema (3; draft-07's `items` may also be a list). What a rewrite of a schema's subschemas
 * walks into, in one place for every such rewrite.
 */
const APPLICATORS: ReadonlyMap<string, 1 | 2 | 3> = new Map([
  ['properties', 1],
  ['patternProperties', 1],
  ['dependentSchemas', 1],
  ['allOf', 2],
  ['anyOf', 2],
  ['oneOf', 2],
  ['prefixItems', 2],
  ['additionalProperties', 3],
  ['additionalItems', 3],
  ['contains', 3],
  ['propertyNames', 3],
  ['not', 3],
  ['if', 3],
  ['then', 3],
  ['else', 3],
  ['contentSchema', 3],
  ['items', 3],
]);

/**
 * `node` with each subschema its applicators hold replaced by `f` of it; copied only where one
 * changed, so an untouched schema comes back as the same object.
 */
export function mapSubschemas(node: JsonObject, f: (schema: Json) => Json): JsonObject {
  let out: JsonObject | undefined;
  for (const k of Object.keys(node)) {
    const kind = APPLICATORS.get(k);
    if (kind === undefined) continue;
    const v = node[k] as Json;
    let r: Json = v;
    if (kind === 1 && isObject(v)) {
      let map: JsonObject | undefined;
      for (const name of Object.keys(v)) {
        const inner = f(v[name] as Json);
        if (inner !== v[name]) (map ??= { ...v })[name] = inner;
      }
      r = map ?? v;
    } else if (Array.isArray(v)) {
      let list: Json[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const inner = f(v[i] as Json);
        if (inner !== v[i]) (list ??= v.slice())[i] = inner;
      }
      r = list ?? v;
    } else if (kind === 3 && isObject(v)) r = f(v);
    if (r !== v) (out ??= { ...node })[k] = r;
  }
  return out ?? node;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
