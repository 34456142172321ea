import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createRequire } from 'node:module';
import { pruneDefinitions } from './prune.ts';
import type { Json, JsonObject, Schema } from './types.ts';

export type Dialect = 'draft-07' | '2019-09' | '2020-12';

/** The dialect a schema declares: 2020-12 unless `$schema` names another we support; null if unsupported. */
export function dialectOf(schema: Schema): Dialect | null {
  const declared = typeof schema === 'object' ? schema.$schema : undefined;
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return null;
  if (/draft-0[67]\/schema/.test(declared)) return 'draft-07';
  if (declared.includes('draft/2019-09')) return '2019-09';
  if (declared.includes('draft/2020-12')) return '2020-12';
  return null;
}

// ajv-formats ships as CommonJS; its default export arrives either wrapped or bare.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

function makeAjv(dialect: Dialect, messages: boolean): Ajv {
  // Unoptimised code generation, and no error-message code, compile several times faster: the gate
  // compiles far more schemas than it runs. Messages only change error text, never validity; a
  // second instance with them explains a rejection when one is reported. Meta-schema validation
  // is done once per schema by schemaProblem (memoised), not again inside every compile.
  const options = {
    strict: false,
    logger: false,
    allErrors: false,
    validateFormats: true,
    messages,
    code: { optimize: false },
    validateSchema: false,
    inlineRefs: false,
  } as const;
  const ajv =
    dialect === '2020-12'
      ? new Ajv2020(options)
      : dialect === '2019-09'
        ? new Ajv2019(options)
        : new Ajv(options);
  addFormats(ajv);
  // Draft-06 schemas are read by the draft-07 instance; their meta-schema ships with Ajv.
  if (dialect === 'draft-07')
    ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
  // MCP's own keyword: an annotation that mirrors an argument into an HTTP header.
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  return ajv;
}

const instances = new Map<string, Ajv>();

function ajvFor(dialect: Dialect, messages = false): Ajv {
  const key = `${dialect}/${messages}`;
  let ajv = instances.get(key);
  if (!ajv) {
    ajv = makeAjv(dialect, messages);
    instances.set(key, ajv);
  }
  return ajv;
}

/** Formats the validator asserts; a format outside this set is unknown to the gate. */
export function knownFormat(format: string): boolean {
  return ajvFor('2020-12').formats[format] !== undefined;
}

export interface Validator {
  (value: unknown): boolean;
  errors?: ValidateFunction['errors'];
}

const cache = new Map<string, ValidateFunction>();
const problems = new Map<string, string | undefined>();
const MAX_CACHE = 2000;

/**
 * Definition documents registered once per Ajv instance, by the identity of their `$defs` (or
 * `definitions`) object. Every schema the gate compiles from one document (each side of a
 * comparison, each node validator, each definition of a specification compared one by one)
 * then shares the compiled definitions instead of compiling the whole document again.
 */
interface SharedDoc {
  id: string;
  defs: JsonObject;
  /** Meta-validation of each definition, by name, done once. */
  problems: Map<string, string | undefined>;
}
let shared = new WeakMap<object, Map<string, SharedDoc | null>>();
/** The same documents by content, so a document read twice (two objects) is still compiled once. */
const sharedByText = new Map<string, SharedDoc | null>();
let sharedCount = 0;
const DOC_BASE = 'https://warden.invalid/defs/';

/**
 * Forgets every compiled validator (benchmarks measure cold compiles). The Ajv instances go too:
 * Ajv's code scope keeps every function it generated, so only a fresh instance frees them.
 */
export function clearValidatorCache(): void {
  cache.clear();
  problems.clear();
  instances.clear();
  shared = new WeakMap();
  sharedByText.clear();
}

const CONTAINERS = ['$defs', 'definitions'] as const;
/** Keywords that reach a schema by something other than a local JSON Pointer: sharing would change them. */
const SCOPED = new Set([
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$dynamicRef',
  '$recursiveRef',
]);

/** Whether every `$ref` in a definitions object points into that same container (and nothing scopes). */
function selfContained(defs: JsonObject, container: string): boolean {
  const prefix = `#/${container}/`;
  const stack: unknown[] = [defs];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [k, v] of Object.entries(node)) {
      if (SCOPED.has(k)) return false;
      if (k === '$ref' && (typeof v !== 'string' || !v.startsWith(prefix))) return false;
      stack.push(v);
    }
  }
  return true;
}

/**
 * Registers a definitions document with both instances of a dialect; null when it cannot be
 * shared. Its definitions are meta-validated one by one, when a schema first reaches them.
 */
function registerDoc(defs: JsonObject, container: string, dialect: Dialect): SharedDoc | null {
  if (!selfContained(defs, container)) return null;
  const id = `${DOC_BASE}${sharedCount++}`;
  for (const m of [false, true]) ajvFor(dialect, m).addSchema({ [container]: defs }, id);
  return { id, defs, problems: new Map() };
}

/** The shared document for a definitions object: by identity, else by content (read twice, still one). */
function docFor(defs: JsonObject, container: string, dialect: Dialect): SharedDoc | null {
  let byDialect = shared.get(defs);
  if (!byDialect) {
    byDialect = new Map();
    shared.set(defs, byDialect);
  }
  let doc = byDialect.get(dialect);
  if (doc === undefined) {
    const text = `${dialect}\u0000${container}\u0000${JSON.stringify(defs)}`;
    doc = sharedByText.get(text);
    if (doc === undefined) {
      doc = registerDoc(defs, container, dialect);
      if (sharedByText.size >= MAX_CACHE) sharedByText.clear();
      sharedByText.set(text, doc);
    }
    byDialect.set(dialect, doc);
  }
  return doc;
}

/** The schema split into a body and a shared definitions document, when that keeps its meaning. */
function splitShared(
  whole: Schema,
  dialect: Dialect,
): { body: JsonObject; doc: SharedDoc; container: string } | undefined {
  if (typeof whole !== 'object') return undefined;
  const present = CONTAINERS.filter((c) => whole[c] !== undefined);
  if (present.length !== 1) return undefined;
  const container = present[0] as string;
  const defs = whole[container];
  if (defs === null || typeof defs !== 'object' || Array.isArray(defs)) return undefined;
  const doc = docFor(defs, container, dialect);
  if (!doc) return undefined;
  const body: JsonObject = {};
  for (const [k, v] of Object.entries(whole)) if (k !== container) body[k] = v;
  if (!selfContainedBody(body)) return undefined;
  return {
    body: withRefsInto(body, `#/${container}/`, `${doc.id}#/${container}/`) as JsonObject,
    doc,
    container,
  };
}

/** A body may point at the shared definitions or into itself, but must not scope anything. */
function selfContainedBody(body: JsonObject): boolean {
  const stack: unknown[] = Object.entries(body)
    .filter(([k]) => k !== '$id')
    .map(([, v]) => v);
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [k, v] of Object.entries(node)) {
      if (SCOPED.has(k)) return false;
      stack.push(v);
    }
  }
  return true;
}

function withRefsInto(node: Json, from: string, to: string): Json {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((x) => withRefsInto(x, from, to));
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node))
    out[k] =
      k === '$ref' && typeof v === 'string' && v.startsWith(from)
        ? to + v.slice(from.length)
        : withRefsInto(v, from, to);
  return out;
}

/**
 * One compiled validator per distinct schema, with the same settings everywhere (witnesses,
 * sampling, replay), so two signals can never agree for different reasons.
 */
export function compileSchema(whole: Schema, messages = false): ValidateFunction {
  const dialect = dialectOf(whole) ?? '2020-12';
  const split = splitShared(whole, dialect);
  if (split) {
    const key = `${dialect}\u0000${messages}\u0000${split.doc.id}\u0000${JSON.stringify(split.body)}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const problem = schemaProblem(whole);
    if (problem !== undefined) throw new Error(`schema is invalid: ${problem}`);
    const body = '$id' in split.body ? withoutId(split.body) : split.body;
    const ajv = ajvFor(dialect, messages);
    // A body that is only a reference (one definition of a document) is the document's own
    // compiled definition: its references then land in the document's table, shared by all.
    const keys = Object.keys(body).filter((k) => k !== '$schema');
    const ref = keys.length === 1 && typeof body.$ref === 'string' ? body.$ref : undefined;
    const fn = (ref ? ajv.getSchema(ref) : undefined) ?? ajv.compile(body as AnySchema);
    if (cache.size >= MAX_CACHE) clearValidatorCache();
    cache.set(key, fn);
    return fn;
  }
  const schema = pruneDefinitions(whole);
  const key = `${dialect}\u0000${messages}\u0000${JSON.stringify(schema)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const problem = schemaProblem(schema);
  if (problem !== undefined) throw new Error(`schema is invalid: ${problem}`);
  const ajv = ajvFor(dialect, messages);
  // $id would collide between schemas that share it; the gate only follows local refs.
  const body = typeof schema === 'object' && '$id' in schema ? withoutId(schema) : schema;
  const fn = ajv.compile(body as AnySchema);
  if (cache.size >= MAX_CACHE) {
    // Ajv keeps every schema it compiled; forgetting them bounds memory (and garbage collection).
    clearValidatorCache();
  }
  cache.set(key, fn);
  return fn;
}

function withoutId(schema: JsonObject): JsonObject {
  const copy = { ...schema };
  delete copy.$id;
  return copy;
}

/** What is wrong with a schema by its dialect's meta-schema, or undefined when it is valid. */
export function schemaProblem(whole: Schema): string | undefined {
  const dialect = dialectOf(whole) ?? '2020-12';
  const split = splitShared(whole, dialect);
  if (!split) return metaProblem(pruneDefinitions(whole), dialect);
  // The body, then each definition it reaches (each checked once per document).
  const own = metaProblem(split.body, dialect);
  if (own !== undefined) return own;
  const reached = (pruneDefinitions(whole) as JsonObject)[split.container] as JsonObject;
  const ajv = ajvFor(dialect, true);
  for (const name of Object.keys(reached)) {
    const { problems, defs } = split.doc;
    if (!problems.has(name)) {
      const def = defs[name] as Schema;
      problems.set(
        name,
        ajv.validateSchema(def) ? undefined : `/${split.container}/${name}: ${ajv.errorsText(ajv.errors)}`,
      );
    }
    const problem = problems.get(name);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function metaProblem(schema: Schema, dialect: Dialect): string | undefined {
  const key = `${dialect}\u0000${JSON.stringify(schema)}`;
  if (problems.has(key)) return problems.get(key);
  const ajv = ajvFor(dialect, true);
  const problem = ajv.validateSchema(schema) ? undefined : ajv.errorsText(ajv.errors);
  if (problems.size >= MAX_CACHE) problems.clear();
  problems.set(key, problem);
  return problem;
}

/** The first error of a validator compiled with messages, as one short line. */
export function explainWith(fn: ValidateFunction, value: unknown): string {
  if (fn(value)) return 'accepted';
  const e = fn.errors?.[0];
  if (!e) return 'rejected';
  return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`;
}
