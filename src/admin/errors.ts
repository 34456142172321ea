/**
 * A refused admin action (bad handle, a scope that cannot be granted, deciding
 * twice…): a stable code, the reason, and what to do next — the same
 * `{code, reason, next}` shape as a tool refusal, for the person at the console or CLI.
 */
export class AdminRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly next: string = '',
  ) {
    super(message);
  }

  /** The refusal as data, as the console renders it. */
  get refusal(): { code: string; reason: string; next: string } {
    return { code: this.code, reason: this.message, next: this.next };
  }
}
