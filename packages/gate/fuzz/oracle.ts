import { Ajv, type AnySchema, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createRequire } from 'node:module';
import { canonical, isObject, type Json, type JsonObject } from './json.ts';

/** The dialects the oracle reads. */
export type Dialect = 'draft-07' | '2019-09' | '2020-12';

/** Both readings of a schema without `$schema`: MCP 2025-11-25 says 2020-12, Ajv's default is draft-07. */
const UNDECLARED_READINGS: readonly Dialect[] = ['2020-12', 'draft-07'];

/**
 * The dialect a schema's `$schema` names; undefined when it names none (read both ways), and
 * 'unsupported' when it names one the oracle does not read (its compile then fails).
 */
function declaredDialect(schema: Json): Dialect | 'unsupported' | undefined {
  const s = isObject(schema) ? schema.$schema : undefined;
  if (s === undefined) return undefined;
  if (typeof s !== 'string') return 'unsupported';
  if (/json-schema\.org\/draft-0[67]\/schema/.test(s)) return 'draft-07';
  if (s.includes('json-schema.org/draft/2019-09/schema')) return '2019-09';
  if (s.includes('json-schema.org/draft/2020-12/schema')) return '2020-12';
  return 'unsupported';
}

/** One way to read a pair: the dialect of each side (they differ when only one names `$schema`). */
export interface Reading {
  old: Dialect;
  new: Dialect;
}

/**
 * Every reading of a pair: a side without `$schema` is read as 2020-12 and as draft-07 (the
 * same choice for both sides of one reading). An unsupported `$schema` yields no reading.
 */
export function readings(oldSchema: Json, newSchema: Json): Reading[] {
  const a = declaredDialect(oldSchema);
  const b = declaredDialect(newSchema);
  if (a === 'unsupported' || b === 'unsupported') return [];
  const out: Reading[] = [];
  for (const d of a !== undefined && b !== undefined ? [a] : UNDECLARED_READINGS) {
    const r = { old: a ?? d, new: b ?? d };
    if (!out.some((x) => x.old === r.old && x.new === r.new)) out.push(r);
  }
  return out;
}

// ajv-formats ships as CommonJS; its default export arrives either wrapped or bare.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/**
 * Ajv as the oracle reads a dialect: a plain Ajv 8 instance, independent of the gate's validator.
 * `overrides` changes an option that does not change what a schema means (allErrors, messages)
 * or turns on an option a client may set (discriminator), for tests that hold the gate to it.
 */
export function oracleAjv(dialect: Dialect, overrides: Options = {}): Ajv {
  const options: Options = {
    strict: false,
    logger: false,
    validateFormats: true,
    allErrors: false,
    // Neither changes what a schema means: refs are compiled as functions (deeply nested refs
    // inlined take Ajv minutes), code is not optimised (twice as fast to compile), and
    // meta-schema validation is done part by part, memoised, by metaProblem below.
    inlineRefs: false,
    code: { optimize: false },
    validateSchema: false,
    ...overrides,
  };
  const ajv =
    dialect === '2020-12'
      ? new Ajv2020(options)
      : dialect === '2019-09'
        ? new Ajv2019(options)
        : new Ajv(options);
  addFormats(ajv);
  if (dialect === 'draft-07')
    ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  return ajv;
}

/** A compiled schema, or why the oracle could not compile it. */
export type Compiled =
  { ok: true; validate: (value: Json) => boolean | undefined } | { ok: false; error: string };

/** A validator that answers undefined instead of throwing (a deep schema can overflow the stack). */
function guarded(fn: (value: unknown) => unknown): (value: Json) => boolean | undefined {
  return (value) => {
    try {
      return fn(value) === true;
    } catch {
      return undefined;
    }
  };
}

const MAX_CACHE = 4000;
let instances = new Map<Dialect, Ajv>();
let cache = new Map<string, Compiled>();
/** Results by schema object too, so the same object is not serialised again for every lookup. */
let identities = new WeakMap<object, Map<Dialect, Compiled>>();

function ajvFor(dialect: Dialect): Ajv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv = oracleAjv(dialect);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/**
 * The oracle's verdict function for a schema read in a dialect; compiled once per text (a
 * bounded cache: when full, it and the Ajv instances, which keep every schema they compiled,
 * start afresh). A document with an `$id` anywhere is compiled as written by an Ajv instance of
 * its own, as a client compiles it: its references may name the root by its URI (`root.json#/x`)
 * or resources inside it, and two documents sharing an id must not collide.
 */
export function compile(schema: Json, dialect: Dialect): Compiled {
  const byObject = isObject(schema) ? identities.get(schema)?.get(dialect) : undefined;
  if (byObject) return byObject;
  const key = `${dialect}\u0000${canonical(schema)}`;
  const hit = cache.get(key);
  if (hit) return remember(schema, dialect, hit);
  let result: Compiled;
  if (declaredDialect(schema) === 'unsupported') result = { ok: false, error: 'unsupported $schema' };
  else {
    const body = schema;
    const ids = canonical(schema).includes('"$id"');
    const problem = metaProblem(body, dialect);
    if (problem !== undefined) result = { ok: false, error: `schema is invalid: ${problem}` };
    else
      try {
        const fn: ValidateFunction = (ids ? oracleAjv(dialect) : ajvFor(dialect)).compile(body as AnySchema);
        result = { ok: true, validate: guarded(fn) };
      } catch (e) {
        // A failed build leaves Ajv holding what it resolved so far, which a later build of
        // another schema may find (see the gate's validator.ts): the instance is not used again.
        instances.delete(dialect);
        result = { ok: false, error: (e as Error).message.split('\n')[0] ?? 'compile error' };
      }
  }
  if (cache.size >= MAX_CACHE) {
    cache = new Map();
    instances = new Map();
    identities = new WeakMap();
  }
  cache.set(key, result);
  return remember(schema, dialect, result);
}

function remember(schema: Json, dialect: Dialect, result: Compiled): Compiled {
  if (!isObject(schema)) return result;
  let m = identities.get(schema);
  if (!m) {
    m = new Map();
    identities.set(schema, m);
  }
  m.set(dialect, result);
  return result;
}

let problems = new Map<string, string | undefined>();

/**
 * What the dialect's meta-schema finds wrong with a schema, or undefined. The document is
 * checked as its parts (the root without its definitions, then each definition), each part
 * once per text: consecutive edits of one document share most of their definitions.
 */
function metaProblem(schema: Json, dialect: Dialect): string | undefined {
  const parts: [string, Json][] = [['', schema]];
  if (isObject(schema)) {
    const root: JsonObject = { ...schema };
    for (const key of ['$defs', 'definitions']) {
      const defs = schema[key];
      if (!isObject(defs)) continue;
      delete root[key];
      for (const [name, def] of Object.entries(defs)) parts.push([`/${key}/${name}`, def]);
    }
    parts[0] = ['', root];
  }
  const ajv = ajvFor(dialect);
  // Ajv checks a whole document against its root's meta-schema, a definition's own $schema a
  // string like any other (only a root may declare one): each definition is checked so too.
  const declared = isObject(schema) ? schema.$schema : undefined;
  const rootMeta = typeof declared === 'string' && declared !== '' ? declared : undefined;
  for (const [where, part] of parts) {
    const meta = where === '' ? undefined : rootMeta;
    const key = `${dialect}\u0000${meta ?? ''}\u0000${canonical(part)}`;
    let problem = problems.get(key);
    if (!problems.has(key)) {
      try {
        const valid =
          where === ''
            ? ajv.validateSchema(part as AnySchema)
            : ajv.validate((meta ?? ajv.defaultMeta()) as AnySchema, part);
        problem = valid ? undefined : ajv.errorsText(ajv.errors);
      } catch (e) {
        problem = (e as Error).message;
      }
      if (problems.size >= MAX_CACHE * 4) problems = new Map();
      problems.set(key, problem);
    }
    if (problem !== undefined) return `${where || '/'}: ${problem}`;
  }
  return undefined;
}

let fragmentInstances = new Map<Dialect, Ajv>();
let documents = new Map<string, string>();
let fragments = new Map<string, Compiled>();

/**
 * The subschema at a JSON Pointer of a document, compiled in the document's context (its refs
 * resolve as in the whole): the oracle's view of one anyOf branch or one if/then/else arm.
 */
export function compileAt(schema: Json, dialect: Dialect, pointer: string): Compiled {
  const text = `${dialect}\u0000${canonical(schema)}`;
  let id = documents.get(text);
  if (id === undefined) {
    if (documents.size >= 500) {
      fragmentInstances = new Map();
      documents = new Map();
      fragments = new Map();
    }
    id = `urn:warden-fuzz:${documents.size}`;
    let ajv = fragmentInstances.get(dialect);
    if (!ajv) {
      ajv = oracleAjv(dialect);
      fragmentInstances.set(dialect, ajv);
    }
    const body = isObject(schema) ? { ...schema } : schema;
    if (isObject(body)) delete body.$id;
    try {
      ajv.addSchema(body as AnySchema, id);
    } catch {
      // The document does not compile: no fragment of it does either.
    }
    documents.set(text, id);
  }
  const ref = `${id}#${pointer
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/')}`;
  let result = fragments.get(ref);
  if (!result) {
    try {
      const fn = fragmentInstances.get(dialect)?.getSchema(ref);
      result = fn ? { ok: true, validate: guarded(fn) } : { ok: false, error: `no schema at ${pointer}` };
    } catch (e) {
      // As in compile: the instance that failed is not used again, nor the ids it gave (the
      // answer is not kept either: its id may name another document next).
      fragmentInstances = new Map();
      documents = new Map();
      fragments = new Map();
      return { ok: false, error: (e as Error).message };
    }
    fragments.set(ref, result);
  }
  return result;
}

/** Validates a value; undefined when the schema does not compile in that dialect or validation fails. */
export function accepts(schema: Json, dialect: Dialect, value: Json): boolean | undefined {
  const c = compile(schema, dialect);
  return c.ok ? c.validate(value) : undefined;
}
