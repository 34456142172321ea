import { isObject, type Json } from './json.ts';

/**
 * Constants both sides of a pair mention (bounds, lengths, regexes, formats, names, enum
 * values): the generator builds values from the source side, and these make it probe exactly
 * where the other side draws a line.
 */
export interface Hints {
  numbers: number[];
  lengths: number[];
  patterns: string[];
  formats: string[];
  names: string[];
  values: Json[];
}

const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const LENGTH_KEYS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];
const LIMIT = 40;

function add<T>(list: T[], value: T): void {
  if (list.length < LIMIT && !list.includes(value)) list.push(value);
}

/** The constants of any number of schemas, each list deduplicated and bounded. */
export function collectHints(...schemas: Json[]): Hints {
  const h: Hints = { numbers: [], lengths: [], patterns: [], formats: [], names: [], values: [] };
  const seen = new Set<string>();
  const visit = (node: Json, depth: number): void => {
    if (depth > 40) return;
    if (Array.isArray(node)) {
      for (const x of node) visit(x, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (NUMBER_KEYS.includes(k) && typeof v === 'number') add(h.numbers, v);
      else if (LENGTH_KEYS.includes(k) && typeof v === 'number') add(h.lengths, v);
      else if (k === 'pattern' && typeof v === 'string') add(h.patterns, v);
      else if (k === 'format' && typeof v === 'string') add(h.formats, v);
      else if (k === 'required' && Array.isArray(v))
        v.forEach((n) => typeof n === 'string' && add(h.names, n));
      else if ((k === 'enum' && Array.isArray(v)) || k === 'const') {
        for (const x of k === 'const' ? [v] : (v as Json[])) {
          const text = JSON.stringify(x);
          if (!seen.has(text) && h.values.length < LIMIT) {
            seen.add(text);
            h.values.push(x);
          }
        }
      }
      if (isObject(v) && ['properties', 'dependentRequired', 'dependentSchemas', 'dependencies'].includes(k))
        Object.keys(v).forEach((n) => add(h.names, n));
      if (isObject(v) && k === 'patternProperties') Object.keys(v).forEach((p) => add(h.patterns, p));
      if (k === 'dependentRequired' && isObject(v))
        for (const list of Object.values(v))
          if (Array.isArray(list)) list.forEach((n) => typeof n === 'string' && add(h.names, n));
      if (k !== 'enum' && k !== 'const' && k !== 'examples' && k !== 'default') visit(v, depth + 1);
    }
  };
  for (const s of schemas) visit(s, 0);
  return h;
}
