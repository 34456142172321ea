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

export function errorFields(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
}
