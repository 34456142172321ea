// Starting a stdio MCP server so that a failure can be explained: the SDK reports only
// "Connection closed", while the child's exit status and last stderr lines name the cause.
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export interface StdioSpec {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** What the child did on its own; null where it did not (still running, stopped by us, never started). */
export interface StdioEvidence {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The end of what it wrote to stderr: at most TAIL_CHARS characters and TAIL_LINES lines. */
  stderrTail: string;
  /** Why it could not be started (ENOENT, EACCES…). */
  spawnError: NodeJS.ErrnoException | null;
}

export interface LaunchedStdio {
  transport: StdioClientTransport;
  evidence(): StdioEvidence;
  /** The evidence once the child has exited and its stderr is read, or after `ms`, whichever is first. */
  settled(ms?: number): Promise<StdioEvidence>;
  /**
   * Stops the child at once with SIGTERM, without the close's grace period (the process-group
   * launcher passes it to the whole group, and SIGKILLs what is left a second later).
   */
  stop(): void;
}

const TAIL_CHARS = 4096;
const TAIL_LINES = 20;

/**
 * The SDK's own transport, not a subclass: the SDK probes the protocol version on a sibling
 * process only for its base class, and a subclass would spend the server's one life on the
 * probe. Hooks go on the instance instead. Stderr is always read, so a chatty child never
 * blocks on a full pipe; only its tail is kept.
 */
export function launchStdio(spec: StdioSpec): LaunchedStdio {
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args ?? [],
    stderr: 'pipe',
    ...(spec.env ? { env: spec.env } : {}),
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
  });
  const seen: StdioEvidence = { exitCode: null, signal: null, stderrTail: '', spawnError: null };
  let child: ChildProcess | undefined;
  let exited = false;
  let stderrEnded = false;
  let closing = false;
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((wake) => wake());

  const decoder = new StringDecoder('utf8');
  const stderr = transport.stderr;
  stderr?.on('data', (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    seen.stderrTail = keepTail(seen.stderrTail, text);
  });
  stderr?.on('error', () => undefined);
  stderr?.on('end', () => {
    seen.stderrTail = keepTail(seen.stderrTail, decoder.end());
    stderrEnded = true;
    changed();
  });

  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
    } catch (err) {
      seen.spawnError = err as NodeJS.ErrnoException;
      throw err;
    }
    child = childOf(transport);
    child?.once('exit', (code, signal) => {
      exited = true;
      // An exit we asked for (close) says nothing about the server.
      if (!closing) Object.assign(seen, { exitCode: code, signal });
      changed();
    });
  };
  const close = transport.close.bind(transport);
  transport.close = async () => {
    closing = true;
    await close();
  };

  const evidence = (): StdioEvidence => ({ ...seen });
  const settled = async (ms = 1000): Promise<StdioEvidence> => {
    if (!child || (exited && stderrEnded)) return evidence();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (exited && stderrEnded) done();
      };
      const timer = setTimeout(done, ms);
      waiters.add(check);
    });
    return evidence();
  };
  const stop = (): void => {
    if (!child || exited) return;
    closing = true;
    try {
      child.kill('SIGTERM');
    } catch {
      // Gone already.
    }
  };
  return { transport, evidence, settled, stop };
}

/** The transport keeps its child private; reading it is the only way to learn how the child ended. */
function childOf(transport: StdioClientTransport): ChildProcess | undefined {
  const child = (transport as unknown as { _process?: unknown })._process;
  return child && typeof (child as ChildProcess).once === 'function' ? (child as ChildProcess) : undefined;
}

/** The last TAIL_CHARS characters and TAIL_LINES lines of `tail + text`, cut at a line start. */
export function keepTail(tail: string, text: string): string {
  let next = tail + (text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text);
  if (next.length > TAIL_CHARS) {
    next = next.slice(-TAIL_CHARS);
    const nl = next.indexOf('\n');
    if (nl >= 0 && nl < next.length - 1) next = next.slice(nl + 1);
  }
  const lines = next.split('\n');
  // A trailing newline leaves one empty element: TAIL_LINES full lines plus it.
  return lines.length > TAIL_LINES + 1 ? lines.slice(-(TAIL_LINES + 1)).join('\n') : next;
}

/** A child's last words: the last stderr line that reads like an error, else its last two lines. */
export function lastWords(stderrTail: string): string {
  const lines = stderrTail
    .split(/\r?\n/)
    .map((l) => l.trim())
    // Stack frames, Node's version banner and the caret under a source line say nothing.
    .filter((l) => l !== '' && !/^at\s/.test(l) && !/^Node\.js v\d/.test(l) && !/^\^+$/.test(l));
  return lines.findLast((l) => ERRORISH.test(l)) ?? lines.slice(-2).join(' | ');
}

const ERRORISH =
  /error|fatal|exception|panic|denied|not found|cannot|can't|could not|failed|missing|invalid|refused/i;
