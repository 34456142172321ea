/**
 * The server's logger: one JSON line per event on stderr, never stdout (stdout is
 * the stdio transport). Internal errors are logged here with their reference and
 * never shown to a model.
 */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export function stderrLogger(write: (line: string) => void = (l) => void process.stderr.write(l)): Logger {
  const emit = (level: string, event: string, fields: Record<string, unknown> = {}) =>
    write(JSON.stringify({ at: new Date().toISOString(), level, event, ...fields }) + '\n');
  return {
    info: (event, fields) => emit('info', event, fields),
    error: (event, fields) => emit('error', event, fields),
  };
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };

/** At most this many stack traces per window: a flood of faults cannot fill the operator's disk. */
const STACKS_PER_WINDOW = 10;
const STACK_WINDOW_MS = 60_000;
let window = { start: 0, stacks: 0, suppressed: 0 };

/**
 * A server fault: the message, and the stack while the budget lasts (10 a minute).
 * Past it the line says how many stacks were left out instead.
 */
export function errorFields(err: unknown, now = Date.now()): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: String(err) };
  if (now < window.start || now - window.start >= STACK_WINDOW_MS)
    window = { start: now, stacks: 0, suppressed: 0 };
  if (window.stacks < STACKS_PER_WINDOW) {
    window.stacks++;
    return { error: err.message, stack: err.stack };
  }
  window.suppressed++;
  return { error: err.message, stacks_suppressed_this_minute: window.suppressed };
}

/** A client's mistake (malformed JSON, a wrong header, …): one line, no stack. It is theirs, not ours. */
export function clientErrorFields(err: unknown): Record<string, unknown> {
  const text =
    err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return { error: text.length > 300 ? `${text.slice(0, 300)}…` : text };
}

const CLIENT_ERROR =
  /^(Parse error|Invalid Request|Invalid params|Bad Request|Not Acceptable|Unsupported Media Type|Payload Too Large|Rejected inbound request|Rejected 2025-era request|Method not allowed|Session not found|Conflict:|Invalid event ID|Unsupported protocol version)/i;

/**
 * Whether an error the SDK reports through `onerror` was caused by the request
 * (answered 4xx) rather than by the server. Unknown shapes count as faults, whose
 * stacks the budget above still bounds.
 */
export function isClientError(err: unknown): boolean {
  if (err instanceof SyntaxError) return true;
  // The client went away mid-request: its doing, nothing to trace.
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE') return true;
  if (err instanceof Error && err.message === 'aborted') return true;
  if (err instanceof Error && (err.name === 'ZodError' || err.name === '$ZodError')) return true;
  return err instanceof Error && CLIENT_ERROR.test(err.message);
}

/** Logs an error met serving a request: one stackless line for a client's mistake, a fault otherwise. */
export function logRequestError(logger: Logger, event: string, err: unknown): void {
  if (isClientError(err)) logger.info(`${event}_client`, clientErrorFields(err));
  else logger.error(event, errorFields(err));
}
