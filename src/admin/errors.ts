/**
 * A refused admin action (bad handle, a scope that cannot be granted, deciding
 * twice…): a stable code and a message for the person at the console or CLI.
 */
export class AdminRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
