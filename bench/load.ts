// Shared by the HTTP benches: a target in its own process, autocannon load from this one,
// medians over rounds.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface Target {
  name: string;
  url: string;
  token?: string;
  child: ChildProcess;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** Every request answered, for dividing a profile's time. */
  requests: number;
  /** CPU the target's process spent (user + system), µs per request; NaN where /proc is missing. */
  cpuPerRequest: number;
}

/** User + system CPU of a process so far, in µs, from /proc (Linux); NaN elsewhere. */
export function cpuMicros(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** Starts bench/targets/<script> under Node; it prints {"url", "token"?} on its first stdout line. */
export function startTarget(
  name: string,
  script: string,
  args: string[] = [],
  nodeArgs: string[] = [],
): Promise<Target> {
  return spawnTarget(name, join(import.meta.dirname, 'targets', script), args, nodeArgs);
}

/** Starts a target script at any path (another checkout's, for a side-by-side run). */
export function spawnTarget(
  name: string,
  path: string,
  args: string[] = [],
  nodeArgs: string[] = [],
): Promise<Target> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line)
        resolve({ name, child, ...(JSON.parse(line) as { url: string; token?: string }) });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** Stops a target and waits for its exit (a profile is written on the way out). */
export function stopTarget(t: Target): Promise<void> {
  if (t.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    t.child.once('exit', () => resolve());
    t.child.kill('SIGTERM');
  });
}

export const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
export const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'club_info', arguments: {} },
});

export function mcpHeaders(t: Pick<Target, 'token'>): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(t.token ? { authorization: `Bearer ${t.token}` } : {}),
  };
}

/** POSTs `body` on `connections` connections for `seconds`; any non-2xx or error fails the run. */
export async function load(t: Target, body: string, connections: number, seconds: number): Promise<Sample> {
  const cpu0 = cpuMicros(t.child.pid);
  const r = await autocannon({
    url: t.url,
    method: 'POST',
    headers: mcpHeaders(t),
    body,
    connections,
    duration: seconds,
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const cpu = cpuMicros(t.child.pid) - cpu0;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    cpuPerRequest: cpu / r.requests.total,
  };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
