import type { Json, JsonObject } from './types.ts';
import type { ValidateFunction } from 'ajv';
import { compileSchema, explainWith } from './validator.ts';
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

/** Validators for each tool's inputSchema, compiled once per manifest. */
export function callValidators(
  manifest: readonly Tool[] | { tools: readonly Tool[] },
): Map<string, ValidateFunction> {
  const out = new Map<string, ValidateFunction>();
  for (const t of asTools(manifest)) {
    try {
      out.set(t.name, compileSchema((t.inputSchema ?? {}) as JsonObject));
    } catch (err) {
      // A schema that does not compile accepts nothing we could vouch for: every call is rejected, with the reason.
      const reason = `inputSchema does not compile: ${err instanceof Error ? err.message : String(err)}`;
      out.set(
        t.name,
        Object.assign(() => false, {
          errors: [{ instancePath: '', message: reason }],
        }) as unknown as ValidateFunction,
      );
    }
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
  let fn: ValidateFunction | undefined;
  return (args) => {
    try {
      fn ??= compileSchema((tool.inputSchema ?? {}) as JsonObject, true);
      return explainWith(fn, args);
    } catch (err) {
      return `inputSchema does not compile: ${err instanceof Error ? err.message : String(err)}`;
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
