import { randomBytes } from 'node:crypto';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { JsonObject } from '../core/json.ts';
import { RefusalError, type Refusal, type ToolRefusalCode } from '../core/refusal.ts';
import { describeErrors, findLoneSurrogate } from '../core/validation.ts';
import { StoreBusyError } from '../store/busy.ts';
import { echo } from '../untrusted/index.ts';
import type { ToolContext } from './context.ts';
import { holdPrivateWords, servingContext } from './private-words.ts';
import { toolRefusal } from './result.ts';

/** What one call came to. `unknown_tool` covers both "never existed" and "hidden from you": one answer. */
export type Invocation =
  | { kind: 'unknown_tool' }
  | { kind: 'ok'; data: JsonObject }
  | { kind: 'refused'; refusal: Refusal<ToolRefusalCode> };

export interface InvokeOptions {
  /** Where internal errors are logged, with the reference the caller is given. */
  logError: (ref: string, tool: string, err: unknown) => void;
  /** Where a call that found the store locked is noted (one line: not a fault, nothing to trace). */
  logBusy?: (ref: string, tool: string, err: unknown) => void;
}

/**
 * The one path from a tool name to a handler: visibility first (a hidden tool is
 * not there), then argument validation, then the handler, then the output checked
 * against the published schema. No handler runs for a caller that cannot see it.
 */
export async function invokeTool(
  name: string,
  rawArgs: unknown,
  ctx: ToolContext,
  options: InvokeOptions,
): Promise<Invocation> {
  const tool = ctx.registry.find(name, ctx.caller.permissions.effective);
  if (!tool) return { kind: 'unknown_tool' };
  const args = rawArgs ?? {};
  if (!tool.validateInput(args)) {
    return {
      kind: 'refused',
      refusal: toolRefusal(
        'invalid_arguments',
        `The arguments do not match ${name}'s input schema: ${describeErrors(echoed(tool.validateInput.errors))}.`,
        'Fix the arguments as the schema in tools/list describes, then call again.',
      ),
    };
  }
  // Half a UTF-16 pair is not text: stored, it becomes bytes no reader can decode.
  const lone = findLoneSurrogate(args);
  if (lone) {
    return {
      kind: 'refused',
      refusal: toolRefusal(
        'invalid_arguments',
        `The argument ${echo(lone.path)} holds a lone surrogate (U+${lone.codeUnit}) at character ${lone.index}: half of a UTF-16 pair without its other half, which is not a character and cannot be stored. Nothing was written.`,
        'Send the complete character (both halves of the pair), or remove it, then call again.',
      ),
    };
  }
  try {
    // Private words do not travel: outgoing text carrying them waits for the principal, and
    // the handler does not run; what a private tool serves is remembered before it leaves.
    const serving = servingContext(tool, ctx);
    const outcome =
      (await holdPrivateWords(tool, args as JsonObject, ctx)) ?? (await tool.spec.handler(args, serving.ctx));
    if (!outcome.ok) return { kind: 'refused', refusal: outcome.refusal };
    if (!tool.validateOutput(outcome.data)) {
      throw new Error(
        `${name} produced output outside its schema: ${describeErrors(tool.validateOutput.errors)}`,
      );
    }
    await serving.remember();
    return { kind: 'ok', data: outcome.data };
  } catch (err) {
    if (err instanceof RefusalError) return { kind: 'refused', refusal: err.refusal };
    const ref = randomBytes(6).toString('hex');
    if (err instanceof StoreBusyError) {
      options.logBusy?.(ref, name, err);
      return {
        kind: 'refused',
        refusal: toolRefusal(
          'internal_error',
          `The club's store is busy with other writes (ref ${ref}); nothing of this call was written.`,
          'Retry the same call in a second or two; it is safe to repeat.',
        ),
      };
    }
    options.logError(ref, name, err);
    return {
      kind: 'refused',
      refusal: toolRefusal(
        'internal_error',
        `Something went wrong on the server (ref ${ref}). Nothing about it is your fault or yours to fix.`,
        'Try again later; if it persists, tell your principal the reference.',
      ),
    };
  }
}

/**
 * Schema errors with what the caller wrote in them (the path through its keys, an unknown
 * property's name) made safe and short, as every echo of a caller's string is.
 */
function echoed(errors: ErrorObject[] | null | undefined): ErrorObject[] | null | undefined {
  return errors?.map((e) => ({
    ...e,
    instancePath: echo(e.instancePath),
    params:
      typeof e.params['additionalProperty'] === 'string'
        ? { ...e.params, additionalProperty: echo(e.params['additionalProperty']) }
        : e.params,
  }));
}
