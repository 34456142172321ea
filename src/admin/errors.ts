import type { AdminRefusalCode, Refusal, ToolRefusalCode } from '../core/refusal.ts';

/**
 * A refused admin action (bad handle, a scope that cannot be granted, deciding
 * twice…): a code from the refusal catalogue, the reason, and what to do next — the
 * same `{code, reason, next}` shape as a tool refusal, for the person at the console or CLI.
 * Only an admin-family code compiles in the constructor; a tool's own refusal, met while
 * acting as the principal, is passed on as it came with `AdminRefusal.passOn`.
 */
export class AdminRefusal extends Error {
  #code: AdminRefusalCode | ToolRefusalCode;

  constructor(
    code: AdminRefusalCode,
    message: string,
    readonly next: string = '',
  ) {
    super(message);
    this.#code = code;
  }

  get code(): AdminRefusalCode | ToolRefusalCode {
    return this.#code;
  }

  /** A tool's refusal, met while the admin layer ran the tool as the principal: passed on as it came. */
  static passOn(refusal: Refusal<ToolRefusalCode>): AdminRefusal {
    const passed = new AdminRefusal('not_found', refusal.reason, refusal.next);
    passed.#code = refusal.code;
    return passed;
  }

  /** The refusal as data, as the console renders it. */
  get refusal(): Refusal {
    return { code: this.code, reason: this.message, next: this.next };
  }
}
