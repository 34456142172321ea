import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './json.ts';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * One Ajv instance for every tool schema, compiled once at start-up, never per request.
 * Unoptimised code generation: the same validation, compiled in half the time, which every
 * process start pays (a stdio server is one process per client launch).
 */
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, code: { optimize: false } });
addFormats(ajv);

export function compileSchema(schema: JsonSchema): ValidateFunction {
  return ajv.compile(schema);
}

/** Ajv errors as short human sentences: "/to must be string". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'invalid';
  return errors
    .map((e) => {
      const where = e.instancePath || '(arguments)';
      if (e.keyword === 'additionalProperties') {
        return `${where} has an unknown property "${String(e.params['additionalProperty'])}"`;
      }
      if (e.keyword === 'required') return `${where} is missing "${String(e.params['missingProperty'])}"`;
      return `${where} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first string (or key) in a value holding a lone surrogate, with its path and
 * position; null when every string is well-formed text. With the `u` flag a valid
 * pair is one code point and never matches \p{Cs}: only an unpaired half does.
 */
export function findLoneSurrogate(
  value: unknown,
  path = 'arguments',
  depth = 0,
): { path: string; index: number; codeUnit: string } | null {
  if (typeof value === 'string') {
    const m = LONE_SURROGATE.exec(value);
    if (!m) return null;
    return { path, index: m.index, codeUnit: m[0].charCodeAt(0).toString(16).toUpperCase() };
  }
  if (typeof value !== 'object' || value === null || depth > 64) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${k}]` : `${path}.${k}`;
    const inKey = findLoneSurrogate(k, `a property name in ${path}`, depth + 1);
    if (inKey) return inKey;
    const found = findLoneSurrogate(v, at, depth + 1);
    if (found) return found;
  }
  return null;
}
