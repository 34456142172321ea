import type { JsonObject } from '../core/json.ts';
import { refusal, type Refusal, type ToolRefusalCode } from '../core/refusal.ts';
import type { ToolOutcome } from '../core/registry.ts';

/** A successful tool result. `data` is typed Json: raw member text cannot be put in it. */
export function ok(data: JsonObject): ToolOutcome {
  return { ok: true, data };
}

/**
 * A refusal the model reads: stable code, the reason in plain words, and what to do next.
 * Only a code of the catalogue's tool family compiles here.
 */
export function refuse(code: ToolRefusalCode, reason: string, next: string): ToolOutcome {
  return { ok: false, refusal: toolRefusal(code, reason, next) };
}

/** The refusal data of a tool, for the paths that throw it or build the outcome themselves. */
export function toolRefusal(code: ToolRefusalCode, reason: string, next: string): Refusal<ToolRefusalCode> {
  return refusal(code, reason, next);
}
