import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
// Imported, not required at run time: the bundle must carry it (the installed package has no
// dependencies to find it in).
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import {
  clearDefinitionIndexes,
  definitionIndex,
  scopesReferences,
  type DefinitionIndex,
} from './definitions.ts';
import { widestNesting } from './bounds.ts';
import { digestOf } from './hash.ts';
import { compactText } from './json-text.ts';
import { SKIP, STOP, walkJson, WHOLE } from './json-walk.ts';
import { flatOneOfs } from './exclusive.ts';
import { factorBranches } from './factor.ts';
import { PART_BASE, shareParts, type RegisterPart } from './parts.ts';
import { pruneDefinitions } from './prune.ts';
import type { Dialect } from './keywords.ts';
import { resolveIds } from './ids.ts';
import type { Json, JsonObject, Schema } from './types.ts';
import { setMember } from './own.ts';
import { PREBUILT_META } from './meta-validators.ts';
import { splitWide, type BuildOracle, type WideSplit } from './wide.ts';

/** The dialects the gate reads, as the keyword table names them. */
export type { Dialect } from './keywords.ts';

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

/**
 * The validator's configurations: `plain` decides every verdict; `messages` only adds error text;
 * `first-error` is Ajv's default (stop at the first error), in which Ajv 8 lets a few values
 * through that the others reject (an empty array past a draft-07 tuple and `contains`). The MCP
 * SDK validates tool arguments with every error collected, as `plain` does; a witness must also
 * hold under Ajv's default, or a default-configured validator would not see the break.
 */
export type Variant = 'plain' | 'messages' | 'first-error';

/**
 * Ajv's code for one validator (its scope's names, then `return function validateN(…){…}`) with
 * the function in parentheses, which V8 compiles at once: almost every validator the gate builds
 * runs, and parsed later it is read twice (once when built, again when first called).
 */
function compiledEagerly(source: string): string {
  const at = source.indexOf('return function ');
  if (at < 0 || !source.endsWith('}')) return source;
  return `${source.slice(0, at)}return (${source.slice(at + 'return '.length)});`;
}

function makeAjv(dialect: Dialect, variant: Variant, keepSource = false): Ajv {
  const messages = variant === 'messages';
  // Unoptimised code generation, and no error-message code, compile several times faster: the gate
  // compiles far more schemas than it runs. Messages only change error text, never validity; a
  // second instance with them explains a rejection when one is reported. Meta-schema validation
  // is done once per schema by schemaProblem (memoised), not again inside every compile.
  const options = {
    strict: false,
    logger: false,
    // Without allErrors Ajv nests the code of each property, item and conjunct inside the
    // previous one's success: 3,000 properties overflow the stack when the function is built
    // (and 2,000 when it first runs). With it the code is flat, whatever the width.
    allErrors: variant !== 'first-error',
    validateFormats: true,
    messages,
    // The code's text is kept only to write it out (see meta-prebuild.ts); it is the same code.
    code: { optimize: false, source: keepSource, process: compiledEagerly },
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
  if (dialect === 'draft-07') ajv.addMetaSchema(draft06);
  // MCP's own keyword: an annotation that mirrors an argument into an HTTP header.
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  return ajv;
}

const instances = new Map<string, Ajv>();

/**
 * The meta-schemas each dialect's instance holds, by id, its default first: the one Ajv checks a
 * schema without `$schema` against (a definition, say).
 */
export const META_SCHEMAS: Readonly<Record<Dialect, readonly string[]>> = {
  'draft-07': ['http://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-06/schema'],
  '2019-09': ['https://json-schema.org/draft/2019-09/schema'],
  '2020-12': ['https://json-schema.org/draft/2020-12/schema'],
};

/** A meta-schema's key among the prebuilt validators: its dialect and id as Ajv looks it up. */
export function metaKey(dialect: Dialect, id: string): string {
  return `${dialect} ${id.replace(/#\/?$/, '')}`;
}

/** The instance that checks schemas against their meta-schema, fresh, keeping its code's text (see meta-prebuild.ts). */
export function metaSchemaAjv(dialect: Dialect): Ajv {
  return makeAjv(dialect, 'messages', true);
}

function ajvFor(dialect: Dialect, variant: Variant = 'plain'): Ajv {
  const key = `${dialect}/${variant}`;
  let ajv = instances.get(key);
  if (!ajv) {
    ajv = makeAjv(dialect, variant);
    instances.set(key, ajv);
  }
  return ajv;
}

/** Formats the validator asserts; a format outside this set is unknown to the gate. */
export function knownFormat(format: string): boolean {
  return ajvFor('2020-12').formats[format] !== undefined;
}

/**
 * The instance type a known format applies to, as the validator applies it: ajv-formats' numeric
 * formats (int32, int64, float, double) constrain numbers and let strings through; every other
 * format constrains strings. Undefined for a format the validator does not know.
 */
export function formatKind(format: string): 'string' | 'number' | undefined {
  const def = ajvFor('2020-12').formats[format];
  if (def === undefined) return undefined;
  return typeof def === 'object' && def !== null && 'type' in def && def.type === 'number'
    ? 'number'
    : 'string';
}

export interface Validator {
  (value: unknown): boolean;
  errors?: ValidateFunction['errors'];
}

/**
 * Compiled validators by the schema's JSON text, then by dialect and variant. The text is the
 * outer key, as is, so a large schema's text is hashed once rather than copied into every key.
 */
const cache = new Map<string, Map<string, ValidateFunction>>();

function cached(text: string, kind: string): ValidateFunction | undefined {
  return cache.get(text)?.get(kind);
}

function keep(text: string, kind: string, fn: ValidateFunction): void {
  // Ajv keeps every schema it compiled; forgetting them bounds memory (and garbage collection).
  if (cache.size >= MAX_CACHE) clearValidatorCache();
  let kinds = cache.get(text);
  if (!kinds) {
    kinds = new Map();
    cache.set(text, kinds);
  }
  kinds.set(kind, fn);
}

/** What the meta-schema says of schemas, by their content (see metaProblem), then by dialect. */
type ProblemStore = Map<string, Map<Dialect, string | undefined>> & { max: number };
const MAX_CACHE = 2000;
const problems: ProblemStore = Object.assign(new Map(), { max: MAX_CACHE });
/** The same of the leaves of wide documents (see wide.ts), of which one document may hold thousands. */
const leafProblems: ProblemStore = Object.assign(new Map(), { max: 50_000 });
/** The definitions each Ajv instance has registered, by content-addressed id, up to MAX_DEFINITIONS. */
const MAX_DEFINITIONS = 20_000;
const registered = new WeakMap<Ajv, Set<string>>();

/**
 * Forgets every compiled validator (benchmarks measure cold compiles). The Ajv instances go too:
 * Ajv's code scope keeps every function it generated, so only a fresh instance frees them.
 */
export function clearValidatorCache(): void {
  cache.clear();
  problems.clear();
  leafProblems.clear();
  instances.clear();
  splits = new WeakMap();
  wideSplits = new WeakMap();
  wideValid = new WeakMap();
  runCache.clear();
  oracles.clear();
  clearDefinitionIndexes();
}

interface Split {
  body: JsonObject;
  index: DefinitionIndex;
  reached: string[];
}
/** Each schema object is split once (schemaProblem and compileSchema both ask). */
let splits = new WeakMap<object, Split | null>();

/**
 * The schema as a body whose references into its definitions name them by content, and the
 * definitions it reaches; undefined when that would change its meaning (the schema is then
 * compiled whole, its unreached definitions pruned).
 */
function splitShared(whole: Schema): Split | undefined {
  if (typeof whole !== 'object') return undefined;
  let split = splits.get(whole);
  if (split === undefined) {
    split = splitOnce(whole) ?? null;
    splits.set(whole, split);
  }
  return split ?? undefined;
}

function splitOnce(whole: JsonObject): Split | undefined {
  const index = definitionIndex(whole);
  if (!index) return undefined;
  const own: JsonObject = {};
  for (const [k, v] of Object.entries(whole)) if (k !== index.container && k !== '$id') setMember(own, k, v);
  // A body may point at the definitions or into itself, but must not scope anything.
  if (scopesReferences(own)) return undefined;
  return { body: index.rewrite(own) as JsonObject, index, reached: index.reachedFrom(own) };
}

/**
 * Registers the definitions a body reaches with an Ajv instance, each once per content, and
 * builds them, each after those it refers to. Ajv builds a referenced schema from inside the
 * build of the one that refers to it: a chain of a few hundred definitions, each referring to
 * the next, would overflow the stack there, where built one by one from its end each finds
 * the next already built.
 */
function register(ajv: Ajv, index: DefinitionIndex, names: string[], variant: Variant): void {
  let done = registered.get(ajv);
  if (!done) {
    done = new Set();
    registered.set(ajv, done);
  }
  const added: string[] = [];
  for (const name of names) {
    const id = index.idOf(name) as string;
    if (done.has(id)) continue;
    ajv.addSchema(forAjv(index.body(name) as Schema, variant) as AnySchema, id);
    done.add(id);
    added.push(name);
  }
  if (added.length > 1)
    for (const name of index.dependenciesFirst(added)) ajv.getSchema(index.idOf(name) as string);
}

/**
 * One compiled validator per distinct schema, with the same settings everywhere (witnesses,
 * sampling, replay), so two signals can never agree for different reasons.
 */
export function compileSchema(written: Schema, messages: boolean | Variant = false): ValidateFunction {
  const variant: Variant = messages === true ? 'messages' : messages === false ? 'plain' : messages;
  const dialect = dialectOf(written) ?? '2020-12';
  // References through an `$id` as the local pointers Ajv resolves them to (see ids.ts): the
  // root's `$id` is not given to the validator, whose instance holds many documents.
  const whole = resolveIds(written, dialect === 'draft-07');
  const wide = wideFor(whole, dialect, variant);
  if (wide) return compileWide(whole, wide, dialect, variant);
  const split = splitShared(whole);
  if (split) {
    const text = compactText(split.body);
    const hit = cached(text, `${dialect}/${variant}`);
    if (hit) return hit;
    const problem = schemaProblem(whole);
    if (problem !== undefined) throw new Error(`schema is invalid: ${problem}`);
    let ajv = ajvFor(dialect, variant);
    // Registered definitions stay in the instance until it goes: a long-running proxy that meets
    // many documents starts a fresh instance rather than hold them all.
    if ((registered.get(ajv)?.size ?? 0) + split.reached.length > MAX_DEFINITIONS) {
      clearValidatorCache();
      ajv = ajvFor(dialect, variant);
    }
    // A body that is only a reference (one definition of a document) is that definition's own
    // compiled validator, shared with every schema that reaches it.
    const keys = Object.keys(split.body).filter((k) => k !== '$schema');
    const ref = keys.length === 1 && typeof split.body.$ref === 'string' ? split.body.$ref : undefined;
    const fn = guarded(
      built(`${dialect}/${variant}`, () => {
        register(ajv, split.index, split.reached, variant);
        return (
          (ref ? ajv.getSchema(ref) : undefined) ?? ajv.compile(forAjv(split.body, variant, ajv) as AnySchema)
        );
      }),
    );
    keep(text, `${dialect}/${variant}`, fn);
    return fn;
  }
  const schema = pruneDefinitions(whole);
  const text = compactText(schema);
  const hit = cached(text, `${dialect}/${variant}`);
  if (hit) return hit;
  const problem = schemaProblem(schema);
  if (problem !== undefined) throw new Error(`schema is invalid: ${problem}`);
  const ajv = ajvFor(dialect, variant);
  // $id would collide between schemas that share it; the gate only follows local refs.
  const body = typeof schema === 'object' && '$id' in schema ? withoutId(schema) : schema;
  const fn = guarded(
    built(`${dialect}/${variant}`, () => ajv.compile(forAjv(body, variant, ajv) as AnySchema)),
  );
  keep(text, `${dialect}/${variant}`, fn);
  return fn;
}

/** Each document is split once per dialect (see wide.ts); null when it is built whole. */
let wideSplits = new WeakMap<object, WideSplit | null>();

/**
 * The document as a shell and leaves (see wide.ts) for a variant that may take it that way:
 * `plain` whenever it splits; `messages` only when every member of `properties` moved and no
 * keyword the validator applies after `properties` stands beside it, so that the errors come
 * in Ajv's order (the shell's, then each leaf's in the order `properties` lists them) and an
 * explanation names the place the document's own validator names. `first-error`, kept to see
 * Ajv's default build as it is, is always built whole.
 */
function wideFor(whole: Schema, dialect: Dialect, variant: Variant): WideSplit | undefined {
  if (variant === 'first-error' || typeof whole !== 'object') return undefined;
  const wide = wideSplitOf(whole, dialect);
  if (!wide) return undefined;
  if (
    variant === 'messages' &&
    (!wide.everyMember || Object.keys(whole).some((k) => appliedAfterProperties(dialect, k)))
  )
    return undefined;
  return wide;
}

function wideSplitOf(whole: JsonObject, dialect: Dialect): WideSplit | undefined {
  let wide = wideSplits.get(whole);
  if (wide === undefined) {
    wide = splitWide(whole, buildOracle(dialect)) ?? null;
    wideSplits.set(whole, wide);
  }
  return wide ?? undefined;
}

const oracles = new Map<Dialect, BuildOracle>();

/** What the dialect's validator knows and compiles (see wide.ts), read from the instance itself. */
export function buildOracle(dialect: Dialect): BuildOracle {
  let oracle = oracles.get(dialect);
  if (!oracle) {
    const ajv = ajvFor(dialect);
    const { regExp } = ajv.opts.code;
    const flags = ajv.opts.unicodeRegExp ? 'u' : '';
    const rules = ajv.RULES.all;
    oracle = {
      knows: (keyword) => Object.hasOwn(rules, keyword),
      compiles: (pattern) => {
        try {
          regExp(pattern, flags);
          return true;
        } catch {
          return false;
        }
      },
    };
    oracles.set(dialect, oracle);
  }
  return oracle;
}

/** Whether Ajv applies a keyword after `properties` (its rules run group by group, each in order). */
function appliedAfterProperties(dialect: Dialect, keyword: string): boolean {
  const { rules, post } = ajvFor(dialect).RULES;
  let after = false;
  for (const group of [...rules, post])
    for (const rule of group.rules) {
      if (after && rule.keyword === keyword) return true;
      if (rule.keyword === 'properties') after = true;
    }
  return false;
}

/** Compiled runs of leaves by dialect and variant, then by text: the two sides of a change share most. */
const runCache = new Map<string, Map<string, ValidateFunction>>();
const MAX_RUNS = 20_000;

/** A run of leaves (see wide.ts) as the validator builds it: `properties` of them alone. */
function runValidator(run: [string, Json][], dialect: Dialect, variant: Variant): ValidateFunction {
  const key = `${dialect}/${variant}`;
  const properties: JsonObject = {};
  for (const [name, leaf] of run) setMember(properties, name, leaf);
  const schema: JsonObject = { properties };
  const text = compactText(schema);
  let byText = runCache.get(key);
  let fn = byText?.get(text);
  if (fn) return fn;
  const ajv = ajvFor(dialect, variant);
  fn = built(key, () => ajv.compile(forAjv(schema, variant, ajv) as AnySchema));
  if (!byText || byText.size >= MAX_RUNS) {
    byText = new Map();
    runCache.set(key, byText);
  }
  byText.set(text, fn);
  return fn;
}

/** A leaf built alone (see wide.ts), once per content, whatever its name. */
function leafValidator(leaf: Json, dialect: Dialect, variant: Variant): ValidateFunction {
  const key = `${dialect}/${variant}`;
  const text = compactText(leaf);
  let byText = runCache.get(`${key} alone`);
  let fn = byText?.get(text);
  if (fn) return fn;
  const ajv = ajvFor(dialect, variant);
  fn = built(key, () => ajv.compile(forAjv(leaf as Schema, variant, ajv) as AnySchema));
  if (!byText || byText.size >= MAX_RUNS) {
    byText = new Map();
    runCache.set(`${key} alone`, byText);
  }
  byText.set(text, fn);
  return fn;
}

/** JSON Pointer's escapes of a name, as Ajv writes it in an error's `instancePath`. */
const pointerSegment = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** A leaf's errors, built alone, placed where the document's own validator places them. */
function errorsAt(name: string, fn: ValidateFunction): NonNullable<ValidateFunction['errors']> {
  const at = pointerSegment(name);
  return (fn.errors ?? []).map((e) => ({
    ...e,
    instancePath: `/${at}${e.instancePath}`,
    schemaPath: `#/properties/${encodeURIComponent(at)}${e.schemaPath.slice(1)}`,
  }));
}

/**
 * A wide document's validator: its shell's, then each run of moved leaves whose names the value
 * holds (read as Ajv reads them: an inherited member too), the run built the first time. Its
 * errors are the shell's, then each run's, in the order `properties` lists the leaves, each
 * where the document's own validator places it (a run is `properties` at its root; a leaf
 * built alone has its errors placed).
 */
function compileWide(whole: Schema, wide: WideSplit, dialect: Dialect, variant: Variant): ValidateFunction {
  const kind = `wide ${dialect}/${variant}`;
  const text = compactText(whole);
  const hit = cached(text, kind);
  if (hit) return hit;
  // The leaves moved on the promise that the document is valid by its meta-schema.
  const problem = schemaProblem(whole);
  if (problem !== undefined) throw new Error(`schema is invalid: ${problem}`);
  const shell = compileSchema(wide.shell, variant);
  const { runs, alone } = wide;
  const fns: (ValidateFunction | undefined)[] = new Array(runs.length);
  const run = ((value: unknown) => {
    let errors: NonNullable<ValidateFunction['errors']> | null = shell(value)
      ? null
      : [...(shell.errors ?? [])];
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const members = value as Record<string, unknown>;
      for (let i = 0; i < runs.length; i++) {
        const leaves = runs[i] as [string, Json][];
        if (alone) {
          const [name, leaf] = leaves[0] as [string, Json];
          const member = members[name];
          if (member === undefined) continue;
          const fn = (fns[i] ??= leafValidator(leaf, dialect, variant));
          if (!fn(member)) (errors ??= []).push(...errorsAt(name, fn));
          continue;
        }
        if (!leaves.some(([name]) => members[name] !== undefined)) continue;
        const fn = (fns[i] ??= runValidator(leaves, dialect, variant));
        if (!fn(value)) (errors ??= []).push(...(fn.errors ?? []));
      }
    }
    run.errors = errors;
    return errors === null;
  }) as ValidateFunction;
  const fn = guarded(Object.assign(run, { schema: whole as AnySchema, schemaEnv: shell.schemaEnv }));
  keep(text, kind, fn);
  return fn;
}

/**
 * Ajv's build of a validator by the instance under `key`, with a pattern it cannot compile
 * (`"["`) said to be what it is: an invalid schema. Ajv lets the `SyntaxError` of `new RegExp`
 * through as it is, which would otherwise read as the gate's own error wherever a schema is
 * first built (the walk builds some parts of a schema before the whole is). A build that
 * fails leaves the instance holding what it had resolved so far, and Ajv has been seen to
 * build the same schema the second time (a reference into a definition's own `$defs` found
 * by the first attempt's leftovers): the instance is not used again.
 */
function built(key: string, build: () => ValidateFunction): ValidateFunction {
  try {
    return build();
  } catch (err) {
    instances.delete(key);
    if (err instanceof SyntaxError)
      throw new Error(`schema is invalid: ${err.message.split('\n')[0]}`, { cause: err });
    throw err;
  }
}

/**
 * The validator failing on a value rather than answering: Ajv 8 builds some schemas into code
 * that throws on some values (a `TypeError` from its own bookkeeping of evaluated properties,
 * with every error collected, under nested allOf, oneOf and `$ref`). Nothing can be said of
 * such a value either way, and a server validating with the same build fails on that call.
 */
export class ValidatorFailure extends Error {
  constructor(cause: unknown, value: unknown) {
    // In the gate's words (see failure.ts): the runtime's text would say nothing to the reader.
    const name = cause instanceof Error ? cause.name : typeof cause;
    let shown = JSON.stringify(value) ?? String(value);
    if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
    super(
      `the validator fails on the value ${shown}: the code Ajv built for it throws (${name}) instead of answering`,
    );
  }
}

/**
 * A compiled validator that answers or throws ValidatorFailure, never the runtime's own error
 * (a RangeError, running out of stack, is left as it is: its callers judge it by width).
 */
function guarded(fn: ValidateFunction): ValidateFunction {
  const run = ((value: unknown) => {
    try {
      const ok = fn(value);
      run.errors = fn.errors;
      return ok;
    } catch (err) {
      if (err instanceof RangeError || err instanceof ValidatorFailure) throw err;
      throw new ValidatorFailure(err, value);
    }
  }) as ValidateFunction;
  return Object.assign(run, { schema: fn.schema, schemaEnv: fn.schemaEnv });
}

/**
 * A schema as Ajv is given it: large oneOfs of exclusive branches as the anyOf they equal,
 * which Ajv builds flat (see exclusive.ts), and in the plain variant a wide anyOf's branches
 * that differ only in one property's values as one branch per shape (see factor.ts), then wide
 * keywords as parts shared by content with every other schema the instance builds (see
 * parts.ts). The messages variant keeps every keyword as written, so an explanation names the
 * keyword the schema has; the first-error variant, kept to see Ajv's default build as it is, is
 * neither merged nor cut into parts. A definition registered on its own (no `ajv` here) is not
 * merged: another document may point into its branches by position.
 */
function forAjv(schema: Schema, variant: Variant, ajv?: Ajv): Schema {
  if (variant === 'messages') return schema;
  const flat = flatOneOfs(schema);
  if (variant !== 'plain' || !ajv) return flat;
  // The text is usually written already (an unchanged schema is the object compileSchema keyed).
  return shareParts(factorBranches(flat, compactText(flat)), partRegistrar(ajv));
}

/**
 * Registers shared parts (see parts.ts) with an Ajv instance, each once per content, under an
 * id made from its text; declines past MAX_DEFINITIONS (the part then stays where it was).
 */
function partRegistrar(ajv: Ajv): RegisterPart {
  return (part, text) => {
    const id = `${PART_BASE}part/${digestOf('sha1', text, 'base64url')}`;
    let done = registered.get(ajv);
    if (!done) {
      done = new Set();
      registered.set(ajv, done);
    }
    if (!done.has(id)) {
      if (done.size >= MAX_DEFINITIONS) return undefined;
      ajv.addSchema(part as AnySchema, id);
      done.add(id);
    }
    return id;
  };
}

function withoutId(schema: JsonObject): JsonObject {
  const copy = { ...schema };
  delete copy.$id;
  return copy;
}

/**
 * What is wrong with a schema by its dialect's meta-schema, or undefined when it is valid. The
 * whole document is checked, every definition whether anything refers to it or not: Ajv checks
 * a document against its meta-schema before it compiles any of it (its default), and refuses
 * the whole when one unused definition is invalid (`items: [...]` under 2020-12, `type: []`).
 */
export function schemaProblem(whole: Schema): string | undefined {
  const dialect = dialectOf(whole) ?? '2020-12';
  // A wide document is valid iff its shell is and each leaf is where it stands, which the
  // meta-schema checks as it checks a document (see wide.ts): each leaf once per content. A
  // problem found is said as the whole document's check says it.
  const wide = typeof whole === 'object' ? wideSplitOf(whole, dialect) : undefined;
  if (wide) {
    let valid = wideValid.get(wide);
    if (valid === undefined) {
      valid = wideProblem(wide, dialect, metaOf(whole, dialect)) === undefined;
      wideValid.set(wide, valid);
    }
    if (valid) return undefined;
  }
  const split = typeof whole === 'object' ? splitShared(whole) : undefined;
  if (!split) return metaProblem(whole, dialect);
  // The body, then each definition, each checked once per content.
  const { body: _rewritten, index } = split;
  const own: JsonObject = {};
  for (const [k, v] of Object.entries(whole as JsonObject)) if (k !== index.container) setMember(own, k, v);
  const problem = metaProblem(own, dialect);
  if (problem !== undefined) return problem;
  // A definition is checked as Ajv checks it within its document: by the root's meta-schema,
  // its own $schema (which only a root may declare) a string like any other.
  const meta = metaOf(own, dialect);
  const defs = (whole as JsonObject)[index.container] as JsonObject;
  for (const name of Object.keys(defs)) {
    const found = metaProblem(defs[name] as Schema, dialect, `#${index.digest(name)} ${meta}`, meta);
    if (found !== undefined) return `/${index.container}/${name}: ${found}`;
  }
  return undefined;
}

/** Whether each wide document (by its split) is valid by its meta-schema, once asked. */
let wideValid = new WeakMap<WideSplit, boolean>();

/** Whether a wide document's shell or one of its leaves is invalid by the meta-schema `meta`. */
function wideProblem(wide: WideSplit, dialect: Dialect, meta: string): string | undefined {
  const problem = schemaProblem(wide.shell);
  if (problem !== undefined) return problem;
  for (const [, leaf] of wide.runs.flat()) {
    const found = metaProblem(leaf as Schema, dialect, `@${meta} ${compactText(leaf)}`, meta, leafProblems);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The meta-schema a root is checked against: the one its `$schema` names, or its dialect's default. */
function metaOf(schema: Schema, dialect: Dialect): string {
  const declared = typeof schema === 'object' ? schema.$schema : undefined;
  return typeof declared === 'string' && declared !== '' ? declared : (META_SCHEMAS[dialect][0] as string);
}

/**
 * `key` names the schema's content: its JSON text, or for a definition `#` and a digest of its
 * text (which no JSON text starts with), so a definition met in many documents is looked up by
 * a short key rather than by its text; for a leaf of a wide document, `@`, the meta-schema's id
 * and its text. `store` is where the answer is kept.
 */
function metaProblem(
  schema: Schema,
  dialect: Dialect,
  key = compactText(schema),
  id = metaOf(schema, dialect),
  store: ProblemStore = problems,
): string | undefined {
  let known = store.get(key);
  if (known?.has(dialect)) return known.get(dialect);
  // The meta-schema Ajv would check it against, prebuilt when the package was built (see
  // meta-validators.ts); else Ajv builds it on first use.
  const prebuilt = PREBUILT_META[metaKey(dialect, id)];
  let problem: string | undefined;
  if (prebuilt) {
    if (!prebuilt(schema)) problem = ajvFor(dialect, 'messages').errorsText(prebuilt.errors);
  } else {
    const ajv = ajvFor(dialect, 'messages');
    const meta = ajv.getSchema(id);
    if (meta === undefined) problem = `no meta-schema ${JSON.stringify(id)} for a ${dialect} document`;
    else if (!meta(schema)) problem = ajv.errorsText(meta.errors);
  }
  if (!known) {
    if (store.size >= store.max) store.clear();
    known = new Map();
    store.set(key, known);
  }
  known.set(dialect, problem);
  return problem;
}

/** The first error of a validator compiled with messages, as one short line. */
export function explainWith(fn: ValidateFunction, value: unknown): string {
  if (fn(value)) return 'accepted';
  const e = fn.errors?.[0];
  if (!e) return 'rejected';
  return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`;
}

/** A validator compiled on first use; undefined (and not retried) when this variant cannot compile it. */
function lazy(schema: Schema, variant: Variant): () => ValidateFunction | undefined {
  let fn: ValidateFunction | undefined | null;
  return () => {
    if (fn === undefined) {
      try {
        fn = compileSchema(schema, variant);
      } catch {
        fn = null;
      }
    }
    return fn ?? undefined;
  };
}

const containing = new WeakMap<object, boolean>();

/**
 * Keywords beside which Ajv 8's two configurations have been seen to answer differently:
 * `contains` (below), and a dynamic reference, whose code without allErrors lets the keywords
 * beside it go unchecked (`{"$recursiveRef": "#", "enum": ["a"]}` accepts `{}` there).
 */
const SENSITIVE_TO_CONFIGURATION = ['contains', '$dynamicRef', '$recursiveRef'];

/**
 * Whether a schema applies `contains` anywhere: the one keyword where Ajv 8's two configurations
 * have been seen to answer differently (its shortcut for an always-valid `contains` schema, beside
 * a tuple, in the default one), over 100,000 fuzzed pairs judged against Ajv's defaults. Elsewhere
 * the second build would double the compile cost of every break for nothing.
 */
function usesContains(schema: Schema): boolean {
  if (typeof schema !== 'object') return false;
  const known = containing.get(schema);
  if (known !== undefined) return known;
  // A key is written as itself in the JSON text (usually already written, see compactText): a text
  // without it has no such keyword, and most schemas are settled without a walk.
  let found = false;
  const text = compactText(schema);
  if (!SENSITIVE_TO_CONFIGURATION.some((k) => text.includes(`"${k}"`))) {
    containing.set(schema, found);
    return found;
  }
  const end = walkJson(
    schema,
    null,
    (v) => {
      if (v === null || typeof v !== 'object') return SKIP;
      return !Array.isArray(v) && SENSITIVE_TO_CONFIGURATION.some((k) => Object.hasOwn(v, k)) ? STOP : null;
    },
    WHOLE,
  );
  found = end === 'stopped';
  containing.set(schema, found);
  return found;
}

/** Members of one keyword at which Ajv's default build is not tried (see breakChecker). */
const TOO_WIDE_TO_NEST = 2000;

/**
 * Whether a value proves a break: `kept` accepts it and `other` rejects it, as the gate's
 * validator decides and also as Ajv's default configuration (first error only) decides, so a
 * validator configured either way sees the break. A schema too wide for Ajv's default build
 * (it nests code per property) is judged by the collecting configuration alone.
 */
export function breakChecker(kept: Schema, other: Schema): (value: unknown) => boolean {
  const plain = [lazy(kept, 'plain'), lazy(other, 'plain')] as const;
  const first = [lazy(kept, 'first-error'), lazy(other, 'first-error')] as const;
  // From about 2,000 members nested one in the next, the default build fails: to compile (at
  // a cost of most of a second for 10,000 properties) or when it first runs. Not tried then.
  // Asked at the first value the collecting build sees break: most comparisons never get one.
  let runs: boolean | undefined;
  const tried = (): boolean =>
    (runs ??=
      (usesContains(kept) || usesContains(other)) &&
      Math.max(widestNesting(kept), widestNesting(other)) < TOO_WIDE_TO_NEST);
  return (value) => {
    const [k, o] = [plain[0](), plain[1]()];
    if (!k || !o || !k(value) || o(value)) return false;
    if (!tried()) return true;
    const [fk, fo] = [first[0](), first[1]()];
    if (!fk || !fo) return true;
    try {
      return fk(value) && !fo(value);
    } catch (err) {
      // Built, but nested too deeply to run (2,000 properties, say): judged as one too wide to
      // build, and not run again (each attempt would parse it anew before overflowing).
      if (!(err instanceof RangeError)) throw err;
      runs = false;
      return true;
    }
  };
}
