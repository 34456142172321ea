/**
 * A one-line reason, in the gate's words, for an error that stopped a comparison. The runtime's
 * own text ("Maximum call stack size exceeded", "Cannot read properties of null") means nothing
 * to the reader of a verdict, so it never reaches one; the validator's account of an invalid
 * schema does, since it says what to fix.
 */
export function failureReason(err: unknown): string {
  if (err instanceof RangeError)
    return 'the validator ran out of stack on it (code nested too deeply, or a reference that leads back to itself)';
  if (
    err instanceof TypeError ||
    err instanceof SyntaxError ||
    err instanceof ReferenceError ||
    !(err instanceof Error)
  )
    return `an internal error (${err instanceof Error ? err.name : typeof err}) stopped the comparison`;
  const line = err.message.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** Whether an error is the validator refusing a schema by its meta-schema (see compileSchema). */
export function isInvalidSchema(err: unknown): err is Error {
  return err instanceof Error && err.message.startsWith('schema is invalid: ');
}
