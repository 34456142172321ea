import type { Json, JsonObject } from './types.ts';
import type { ValidateFunction } from 'ajv';
import { beyondBounds } from './bounds.ts';
import { failureReason, isInvalidSchema } from './failure.ts';
import { renderMessage } from './rules.ts';
import { compileSchema, explainWith, type Validator } from './validator.ts';
import { asTools, type Tool } from './tools.ts';

/** One recorded call: which tool, with which arguments, from which line of the recording. */
export interface RecordedCall {
  line: number;
  tool: string;
  arguments: Json;
}

export interface ReplayRejection {
  line: number;
  tool: string;
  error: string;
}

export interface ReplayResult {
  checked: number;
  rejected: ReplayRejection[];
}

/** Parses a JSONL recording of `{tool, arguments}` (or `{name, arguments}`); a bad line is an error, never skipped. */
export function parseCalls(text: string): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new Error(`line ${i + 1}: not valid JSON`);
    }
    const obj = parsed as JsonObject | null;
    const tool = obj && typeof obj === 'object' ? (obj.tool ?? obj.name) : undefined;
    if (typeof tool !== 'string') throw new Error(`line ${i + 1}: a call needs a "tool" name`);
    calls.push({ line: i + 1, tool, arguments: (obj as JsonObject).arguments ?? {} });
  }
  return calls;
}

/** Why a tool's inputSchema cannot be compiled to judge calls, or undefined when it can. */
function compileProblem(tool: Tool, messages: boolean): string | ValidateFunction {
  const schema = (tool.inputSchema ?? {}) as JsonObject;
  const beyond = beyondBounds(schema);
  if (beyond) return `inputSchema is not read: ${renderMessage(beyond)}`;
  try {
    return compileSchema(schema, messages);
  } catch (err) {
    return `inputSchema does not compile: ${isInvalidSchema(err) ? err.message : failureReason(err)}`;
  }
}

/**
 * Validators for each tool's inputSchema, compiled once per manifest. None of them throws: a
 * schema that cannot judge (beyond the bounds, not compiling, or failing on one call) accepts
 * nothing the gate could vouch for, so the call is rejected, with the reason as its error.
 */
export function callValidators(
  manifest: readonly Tool[] | { tools: readonly Tool[] },
): Map<string, Validator> {
  const out = new Map<string, Validator>();
  for (const t of asTools(manifest)) {
    const fn = compileProblem(t, false);
    const check: Validator = (args: unknown) => {
      if (typeof fn === 'string') {
        check.errors = [{ instancePath: '', message: fn } as NonNullable<Validator['errors']>[number]];
        return false;
      }
      try {
        const ok = fn(args);
        check.errors = fn.errors;
        return ok;
      } catch (err) {
        const message = `the call could not be validated: ${failureReason(err)}`;
        check.errors = [{ instancePath: '', message } as NonNullable<Validator['errors']>[number]];
        return false;
      }
    };
    out.set(t.name, check);
  }
  return out;
}

/** The validator's reason for rejecting a call (or why its schema cannot judge it). */
export function whyRejected(
  manifest: readonly Tool[] | { tools: readonly Tool[] },
  call: RecordedCall,
): string {
  const tool = asTools(manifest).find((t) => t.name === call.tool);
  return tool ? explainFor(tool)(call.arguments) : 'tool is not in the manifest';
}

/** A function explaining rejections under one tool's inputSchema (messages compiled once, on first need). */
function explainFor(tool: Tool): (args: Json) => string {
  let fn: string | ValidateFunction | undefined;
  return (args) => {
    fn ??= compileProblem(tool, true);
    if (typeof fn === 'string') return fn;
    try {
      return explainWith(fn, args);
    } catch (err) {
      return `the call could not be validated: ${failureReason(err)}`;
    }
  };
}

/**
 * Which recorded calls a manifest rejects, validated with the same validator settings as the
 * witnesses (a call to a tool the manifest lacks is rejected too).
 */
export function replay(
  calls: readonly RecordedCall[],
  manifest: readonly Tool[] | { tools: readonly Tool[] },
): ReplayResult {
  const validators = callValidators(manifest);
  const explain = new Map(asTools(manifest).map((t) => [t.name, explainFor(t)]));
  const rejected: ReplayRejection[] = [];
  for (const call of calls) {
    const validate = validators.get(call.tool);
    if (!validate) rejected.push({ line: call.line, tool: call.tool, error: 'tool is not in the manifest' });
    else if (!validate(call.arguments)) {
      const error = (explain.get(call.tool) as (args: Json) => string)(call.arguments);
      rejected.push({ line: call.line, tool: call.tool, error });
    }
  }
  return { checked: calls.length, rejected };
}
