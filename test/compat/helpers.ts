import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'compat');

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

const compiled = new Map<string, ValidateFunction>();
const instances = new Map<string, Ajv>();

/** An Ajv of the test's own (default, optimised settings), independent of the library's, to check witnesses. */
export function independentValidator(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  const draft07 =
    typeof schema === 'object' &&
    schema !== null &&
    /draft-0[67]\//.test(String((schema as { $schema?: unknown }).$schema ?? ''));
  const kind = draft07 ? 'draft-07' : '2020-12';
  let ajv = instances.get(kind);
  if (!ajv) {
    ajv = draft07 ? new Ajv({ strict: false, logger: false }) : new Ajv2020({ strict: false, logger: false });
    // Draft-06 is read as draft-07, its meta-schema added (as Ajv's documentation shows).
    if (draft07) ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
    addFormats(ajv);
    instances.set(kind, ajv);
  }
  const fn = ajv.compile(schema as object);
  compiled.set(key, fn);
  return fn;
}
