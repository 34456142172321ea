import type { Refusal, RefusalCode } from '../core/refusal.ts';

/**
 * A refused admin action (bad handle, a scope that cannot be granted, deciding
 * twice…): a code from the refusal catalogue, the reason, and what to do next — the
 * same `{code, reason, next}` shape as a tool refusal, for the person at the console or CLI.
 */
export class AdminRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly next: string = '',
  ) {
    super(message);
  }

  /** The refusal as data, as the console renders it. */
  get refusal(): Refusal {
    return { code: this.code, reason: this.message, next: this.next };
  }
}
