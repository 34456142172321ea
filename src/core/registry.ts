import type { ValidateFunction } from 'ajv';
import type { JsonObject, JsonSchema } from './json.ts';
import type { Refusal, ToolRefusalCode } from './refusal.ts';
import { SCOPES, type Scope } from './scopes.ts';
import { TIER_CEILING, TIERS, type Tier } from './tiers.ts';
import { compileSchema } from './validation.ts';

/** What a tool handler returns: data for the caller, or a refusal with its reason. */
export type ToolOutcome = { ok: true; data: JsonObject } | { ok: false; refusal: Refusal<ToolRefusalCode> };

interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * What text of a call leaves its principal, and what member text its result serves: the
 * declarations the private-words check (core/private-words.ts) reads, one per tool, so
 * the check runs in one place (tools/invoke.ts) and never in a handler.
 */
export interface ToolWords<Args> {
  /** Arguments whose text others will read (another member, the club, every visitor): checked before the handler runs. */
  sends: readonly (keyof Args & string)[];
  /**
   * The member text a result carries: 'private' when it is written to this principal by
   * someone (a question put to them, an answer to their question), remembered as
   * fingerprints when served; 'public' (profiles, seen by everyone); 'own' (only what
   * the principal's side wrote); 'none' (no member text).
   */
  serves: 'private' | 'public' | 'own' | 'none';
  /**
   * Who the sent text is addressed to, whose own words may go back to them: the argument
   * holding their handle, or the id of the question being answered (its asker).
   */
  recipient?: { handle: keyof Args & string } | { question: keyof Args & string };
}

/** A tool as written in tools/<domain>/. `Ctx` is the per-request context the server builds. */
export interface ToolSpec<Ctx, Args = never> {
  name: string;
  title: string;
  /** The scope a caller needs to see and call it; null for the public tools. */
  scope: Scope | null;
  /** Written for a model: what it does, when to use it, what it refuses. */
  description: string;
  inputSchema: JsonSchema;
  /** The full shape of a result: every result is checked against it before it leaves. */
  outputSchema: JsonSchema;
  /**
   * What tools/list shows instead, when a lighter description serves a model as well:
   * it must accept every result the full outputSchema accepts.
   */
  publishedOutputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** Its outgoing text and served member text, for the private-words check. */
  words: ToolWords<Args>;
  handler: (args: Args, ctx: Ctx) => Promise<ToolOutcome>;
}

/** The tool descriptor exactly as tools/list publishes it (built and frozen once). */
export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations?: ToolAnnotations;
}

export interface CompiledTool<Ctx> {
  spec: ToolSpec<Ctx, unknown>;
  descriptor: Readonly<ToolDescriptor>;
  validateInput: ValidateFunction;
  validateOutput: ValidateFunction;
}

const NAME = /^[a-z][a-z0-9_]{1,63}$/;

/**
 * The one place tools are registered. Everything expensive (schema compilation,
 * descriptors) happens here once; per request only the caller's view is chosen.
 */
export class Registry<Ctx> {
  readonly #tools: CompiledTool<Ctx>[] = [];
  readonly #byName = new Map<string, CompiledTool<Ctx>>();
  /** Views memoised by effective-scope bitmask: 2^7 possible keys at most. Holds no permissions. */
  readonly #views = new Map<number, readonly Readonly<ToolDescriptor>[]>();

  register<Args>(spec: ToolSpec<Ctx, Args>): this {
    if (!NAME.test(spec.name)) throw new Error(`tool name "${spec.name}" must be snake_case`);
    if (this.#byName.has(spec.name)) throw new Error(`tool "${spec.name}" is already registered`);
    if (!spec.description.trim()) throw new Error(`tool "${spec.name}" needs a description`);
    // MCP requires object schemas at the top: a client rejects (or an SDK rewrites) anything else.
    if (spec.inputSchema['type'] !== 'object' || spec.outputSchema['type'] !== 'object') {
      throw new Error(`tool "${spec.name}": input and output schemas must have type "object" at the top`);
    }
    const props = (spec.inputSchema['properties'] ?? {}) as Record<string, JsonSchema>;
    for (const field of spec.words.sends) {
      if (props[field]?.['type'] !== 'string')
        throw new Error(`tool "${spec.name}": words.sends names "${field}", which is not a string argument`);
    }
    const descriptor: ToolDescriptor = deepFreeze({
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: spec.inputSchema,
      outputSchema: spec.publishedOutputSchema ?? spec.outputSchema,
      ...(spec.annotations ? { annotations: spec.annotations } : {}),
    });
    const compiled: CompiledTool<Ctx> = {
      spec: spec as unknown as ToolSpec<Ctx, unknown>,
      descriptor,
      validateInput: compileSchema(spec.inputSchema),
      validateOutput: compileSchema(spec.outputSchema),
    };
    this.#tools.push(compiled);
    this.#byName.set(spec.name, compiled);
    this.#views.clear();
    return this;
  }

  /** Every registered tool, in registration order. */
  all(): readonly CompiledTool<Ctx>[] {
    return this.#tools;
  }

  /** The tools a caller with these effective scopes may see, in a deterministic order. */
  list(effective: ReadonlySet<Scope>): readonly Readonly<ToolDescriptor>[] {
    const key = scopeMask(effective);
    let view = this.#views.get(key);
    if (!view) {
      view = Object.freeze(
        this.#tools.filter((t) => isVisible(t.spec.scope, effective)).map((t) => t.descriptor),
      );
      this.#views.set(key, view);
    }
    return view;
  }

  /**
   * The tool by name if and only if this caller may see it. A hidden tool and a
   * name that never existed both give undefined, so no caller can tell them apart.
   */
  find(name: string, effective: ReadonlySet<Scope>): CompiledTool<Ctx> | undefined {
    const tool = this.#byName.get(name);
    return tool && isVisible(tool.spec.scope, effective) ? tool : undefined;
  }

  /** The public catalog: each tool, its scope and which tiers could ever see it. */
  catalog(): { name: string; title: string; scope: Scope | null; tiers: Tier[] }[] {
    return this.#tools.map((t) => ({
      name: t.spec.name,
      title: t.spec.title,
      scope: t.spec.scope,
      tiers: TIERS.filter((tier) => t.spec.scope === null || TIER_CEILING[tier].includes(t.spec.scope)),
    }));
  }
}

function isVisible(scope: Scope | null, effective: ReadonlySet<Scope>): boolean {
  return scope === null || effective.has(scope);
}

function scopeMask(effective: ReadonlySet<Scope>): number {
  let mask = 0;
  SCOPES.forEach((s, i) => {
    if (effective.has(s)) mask |= 1 << i;
  });
  return mask;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
