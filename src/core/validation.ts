import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './json.ts';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** One Ajv instance for every tool schema, compiled once at start-up, never per request. */
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
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
