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
export const APPLICATORS: ReadonlyMap<string, 1 | 2 | 3> = new Map([
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
