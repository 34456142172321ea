import type { JsonObject } from '../core/json.ts';
import { refusal, type RefusalCode } from '../core/refusal.ts';
import type { ToolOutcome } from '../core/registry.ts';

/** A successful tool result. `data` is typed Json: raw member text cannot be put in it. */
export function ok(data: JsonObject): ToolOutcome {
  return { ok: true, data };
}

/** A refusal the model reads: stable code, the reason in plain words, and what to do next. */
export function refuse(code: RefusalCode, reason: string, next: string): ToolOutcome {
  return { ok: false, refusal: refusal(code, reason, next) };
}
