/** What a CLI command may touch: passed in, so tests run commands in-process with captured output. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colours, progress lines). */
  isTty: boolean;
  /** The name the gate runs under (`warden-gate`, or a host's such as `warden gate`), for commands it prints. */
  program?: string;
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

/** Exit codes of a host program's own commands (Warden's): 0 done, 1 failed, 2 error. */
export const EXIT = { ok: 0, failed: 1, error: 2 } as const;

/**
 * The gate's exit codes, one contract for every gate command (pin, check, diff, accept, proxy):
 * a CI job tells a break from an undecided change from a run that decided nothing. Documented
 * in docs/guide.md and docs/reference.md ("Exit codes").
 */
export const GATE_EXIT = {
  /** Identical or compatible (also unknown with --allow-unknown). */
  pass: 0,
  /** A breaking change. */
  breaking: 1,
  /** An unknown change, or the gate's own signals disagree (never let through). */
  unknown: 2,
  /** Nothing was decided: bad options, an unreadable file, a server not reached, an internal error. */
  error: 3,
} as const;

/** A usage or input error the user can fix: printed plainly, never a stack (exit 3 in the gate). */
export class UsageError extends Error {}
