import type { JsonObject } from './json.ts';
import type { RefusalCode, ToolRefusalCode } from './refusals/catalogue.ts';

export type {
  AdminRefusalCode,
  ConsoleRefusalCode,
  DecisionRefusalCode,
  HttpRefusalCode,
  RefusalCode,
  ToolRefusalCode,
} from './refusals/catalogue.ts';

/**
 * Refusals are data: a stable snake_case code a program can branch on (one of the
 * catalogue's, refusals/catalogue.ts), the reason in plain words, and what to do next.
 * Never a stack, never SQL. Tools, the admin layer and the console all use this shape;
 * `C` narrows the code to the family that gives it (`Refusal<ToolRefusalCode>`).
 */
export interface Refusal<C extends RefusalCode = RefusalCode> {
  code: C;
  reason: string;
  next: string;
  /**
   * Facts a program can follow (a decision id) and member text the refusal cites (a
   * denial's note), already wrapped: typed Json, so raw member text does not compile here.
   */
  detail?: JsonObject;
}

export function refusal<C extends RefusalCode>(code: C, reason: string, next: string): Refusal<C> {
  return { code, reason, next };
}

/** Thrown by assert-style helpers; converted to a refusal result at the tool boundary. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal<ToolRefusalCode>) {
    super(`${refusal.code}: ${refusal.reason}`);
  }
}
