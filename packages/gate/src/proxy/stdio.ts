// The stdio proxy: the agent's stdin and stdout on one side, the server's pipes on the other;
// calls recorded for replay, tools whose change is breaking or unknown withheld.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
// Messages are written by jsonText, not JSON.stringify: a relayed schema may nest deeper than its stack allows.
import { jsonText } from '../compat/index.ts';
import { GATE_EXIT, type CliIo } from '../host/io.ts';
import type { Enforcer } from '../enforce/enforcer.ts';
import { batchAllowed, batchRefused, invalidRequest, judgeMessages } from '../enforce/judge.ts';
import * as onDemand from '../enforce/list-on-demand.ts';
import { groupLaunch } from '../connect/launch.ts';

interface Message {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { name?: string; arguments?: unknown; [k: string]: unknown };
  result?: { tools?: unknown; protocolVersion?: unknown; [k: string]: unknown };
}

const isAnswer = (m: unknown): m is Message & { id: string | number } =>
  typeof m === 'object' && m !== null && !Array.isArray(m) && 'id' in m && !('method' in m);

/** What the stdio proxy runs: the server's command line, and where to record calls (JSONL). */
export interface StdioProxyOptions {
  command: readonly string[];
  calls?: string;
  /** How long the server gets to answer initialize, and each page of the proxy's own listing. */
  timeoutMs?: number;
}

/** How long a server whose agent has gone (stdin closed) gets to exit before its group is stopped. */
const EXIT_GRACE_MS = 2000;

/**
 * Serves the agent on this process's stdin and stdout, in front of the server `command` starts;
 * resolves with the gate's exit code once the server is gone.
 */
export async function serveStdioProxy(
  options: StdioProxyOptions,
  enforcer: Enforcer,
  io: CliIo,
): Promise<number> {
  const args = options;
  const command = options.command;
  const record = args.calls ? fs.createWriteStream(args.calls, { flags: 'a' }) : undefined;
  const recordCall = (call: unknown): void => void record?.write(`${jsonText(call)}\n`);
  const [cmd, ...rest] = command as [string, ...string[]];
  const timeoutMs = options.timeoutMs ?? onDemand.LIST_PAGE_TIMEOUT_MS;
  // In a process group of its own: stopping it stops everything it started, whatever ends the proxy.
  const launch = groupLaunch(cmd, rest);
  const grouped = launch.command !== cmd;
  const child = spawn(launch.command, launch.args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: grouped ? { ...process.env, WARDEN_GATE_LAUNCH_PREFIX: 'warden-gate proxy: ' } : process.env,
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  /** Stops the server's whole group (the launcher passes SIGTERM on and SIGKILLs what is left). */
  const stopServer = (): void => {
    if (!exited) child.kill('SIGTERM');
  };
  let timedOut = false;
  /** initialize requests owed an answer, by id: a server that does not answer in time is stopped. */
  const initTimers = new Map<string, NodeJS.Timeout>();
  const awaitInitialize = (id: string | number): void => {
    const timer = setTimeout(() => {
      initTimers.delete(key(id));
      timedOut = true;
      const seconds = +(timeoutMs / 1000).toFixed(1);
      toAgent({
        jsonrpc: '2.0',
        id,
        error: { code: -32001, message: `the server did not answer initialize within ${seconds} s` },
      });
      io.stderr(
        `warden-gate proxy: ${cmd} did not answer initialize within ${seconds} s; stopped it (raise the limit with --timeout SECONDS)\n`,
      );
      stopServer();
    }, timeoutMs);
    initTimers.set(key(id), timer);
  };
  const toAgent = (m: unknown): void => io.stdout(`${jsonText(m)}\n`);
  const toServer = (m: unknown): void => void child.stdin.write(`${jsonText(m)}\n`);
  const key = (id: unknown): string => jsonText(id);
  /** tools/list and initialize requests in flight, by id: their answers are read on the way back. */
  const listIds = new Set<string>();
  const initIds = new Set<string>();
  /** The revision the server agreed to in its initialize answer; batches exist up to 2025-03-26 only. */
  let version: string | undefined;
  /** Batches still owed answers by the server, by the id of each request forwarded from them. */
  const pending = new Map<string, { answers: unknown[]; owed: Set<string> }>();

  /**
   * A batch: each element is judged as a message on its own would be, the refused calls are
   * answered here, and the rest go to the server one message a line (servers need not read
   * batches on stdio, and the SDK's do not). The agent gets one array holding every answer,
   * in the order they came, once the server has answered each forwarded request.
   */
  const onBatch = (elements: unknown[]): void => {
    if (elements.length === 0) return toAgent(invalidRequest('Invalid Request: empty batch'));
    const without = batchAllowed(version, elements);
    if (without !== undefined) return toAgent(batchRefused(without));
    const judged = judgeMessages(elements, enforcer, recordCall);
    for (const id of judged.lists) listIds.add(key(id));
    if (judged.requests.length > 0) {
      const batch = { answers: [...judged.answered], owed: new Set(judged.requests.map(key)) };
      for (const k of batch.owed) pending.set(k, batch);
    } else if (judged.answered.length > 0) toAgent(judged.answered);
    for (const m of judged.forwarded) toServer(m);
  };

  /** The proxy's own tools/list requests in flight (list-on-demand.ts), by id. */
  const own = new Map<string, (result: Record<string, unknown> | undefined) => void>();
  const listPage =
    (messages: readonly unknown[]) =>
    (cursor: string | undefined): Promise<Record<string, unknown> | undefined> =>
      new Promise((resolve) => {
        const id = onDemand.ownId();
        const timer = setTimeout(() => settle(undefined), timeoutMs);
        const settle = (result: Record<string, unknown> | undefined): void => {
          clearTimeout(timer);
          own.delete(key(id));
          resolve(result);
        };
        own.set(key(id), settle);
        toServer(onDemand.listRequest(id, cursor, messages));
      });

  /**
   * One line from the agent. Lines are taken in order, one at a time: a call of a locked tool
   * no listing has judged yet waits while the proxy lists on its own, and what follows it waits
   * too, so the server sees the agent's messages in the order they were sent.
   */
  const onLine = async (line: string): Promise<void> => {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      child.stdin.write(`${line}\n`); // not ours to judge: the server answers malformed input
      return;
    }
    const messages = Array.isArray(m) ? m : [m];
    if (onDemand.unjudgedCalls(messages, enforcer).length > 0)
      await onDemand.listAll(listPage(messages), enforcer);
    if (Array.isArray(m)) return onBatch(m);
    if (typeof m !== 'object' || m === null) return void child.stdin.write(`${line}\n`);
    const msg = m as Message;
    if (msg.method === 'initialize' && msg.id !== undefined && msg.id !== null) {
      initIds.add(key(msg.id));
      awaitInitialize(msg.id);
    }
    const judged = judgeMessages([msg], enforcer, recordCall);
    for (const id of judged.lists) listIds.add(key(id));
    if (judged.answered.length > 0) return toAgent(judged.answered[0]);
    child.stdin.write(`${line}\n`);
  };
  // The proxy is the agent's transport, so it reads the real stdin (CliIo carries no input stream).
  const fromAgent = readline.createInterface({ input: process.stdin });
  let queue = Promise.resolve();
  fromAgent.on('line', (line) => {
    queue = queue.then(() => onLine(line)).catch(() => undefined);
  });

  /** A server message, with the withheld tools taken out if it answers a tools/list. */
  const judgeAnswer = (m: unknown): unknown => {
    if (typeof m !== 'object' || m === null || Array.isArray(m)) return m;
    const msg = m as Message;
    if (msg.id === undefined || msg.method !== undefined) return m;
    const k = key(msg.id);
    clearTimeout(initTimers.get(k));
    initTimers.delete(k);
    if (initIds.delete(k) && typeof msg.result?.protocolVersion === 'string')
      version = msg.result.protocolVersion;
    if (!listIds.has(k) || !msg.result || !Array.isArray(msg.result.tools)) return m;
    listIds.delete(k);
    return { ...msg, result: enforcer.filterResult(msg.result) };
  };
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      io.stdout(`${line}\n`);
      return;
    }
    if (Array.isArray(m)) return toAgent(m.map(judgeAnswer));
    // The answer to the proxy's own listing is the proxy's, never the agent's.
    const mine = isAnswer(m) ? own.get(key(m.id)) : undefined;
    if (mine) return mine(onDemand.listResult(m));
    const answer = judgeAnswer(m);
    const id = (m as Message | null)?.id;
    const batch = id === undefined || (m as Message).method !== undefined ? undefined : pending.get(key(id));
    if (batch) {
      pending.delete(key(id));
      batch.owed.delete(key(id));
      batch.answers.push(answer);
      if (batch.owed.size === 0) toAgent(batch.answers);
      return;
    }
    if (answer !== m) return toAgent(answer);
    io.stdout(`${line}\n`);
  });
  // The agent gone: the server's stdin is closed, and a server still running after a grace
  // period is stopped with everything it started.
  process.stdin.on(
    'end',
    () =>
      void queue.then(() => {
        child.stdin.end();
        setTimeout(stopServer, EXIT_GRACE_MS).unref();
      }),
  );
  const onSignal = (): void => stopServer();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // The server's end is the proxy's: a clean exit passes, a server that could not start or
  // ended in failure is an error of the run (3), never read as a verdict.
  const code = await new Promise<number>((resolve) => {
    child.on('error', (err: NodeJS.ErrnoException) => {
      io.stderr(`warden-gate proxy: cannot start ${cmd}: ${err.code ?? err.message}\n`);
      resolve(GATE_EXIT.error);
    });
    child.on('exit', (c) => {
      resolve(c === 0 && !timedOut ? GATE_EXIT.pass : GATE_EXIT.error);
    });
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  for (const timer of initTimers.values()) clearTimeout(timer);
  fromAgent.close();
  process.stdin.destroy();
  record?.end();
  return code;
}
