/** What a CLI command may touch: passed in, so tests run commands in-process with captured output. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colours, progress lines). */
  isTty: boolean;
}

/** The real process streams. */
export function processIo(): CliIo {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    isTty: Boolean(process.stdout.isTTY),
  };
}

/** An in-memory io for tests: everything written is kept. */
export function bufferIo(
  env: Record<string, string | undefined> = {},
): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env,
    isTty: false,
  };
}

/** Exit codes shared by every command (documented in the README). */
export const EXIT = { ok: 0, failed: 1, error: 2 } as const;

/** A usage or input error the user can fix: printed plainly, exit 2, never a stack. */
export class UsageError extends Error {}
