// npm run bench -- flood: another client's tools/list while 16 bodies of ~1 MB of nested
// brackets are kept in flight against the same Warden (from another process, so the
// attacker's own work is not charged to the server). Each answered flood request is
// replaced at once. The probe is one member's tools/list, one request at a time; its
// latency is reported beside the same probe with no flood, in the same run.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { cpuMicros, LIST, mcpHeaders, startTarget, stopTarget, type Target } from './load.ts';

const FLOOD = 16;
const SECONDS = Number(process.env['BENCH_FLOOD_SECONDS'] ?? 5);
/** The bound on the probe's p99 under the flood. */
const FLOOD_P99_MS = 50;

/** Keeps FLOOD posts of the bracket body in flight for `seconds`; resolves with every status. */
function flood(url: string, headers: Record<string, string>, seconds: number) {
  const code = `
    const http = require('node:http');
    const body = Buffer.from('['.repeat(500000) + ']'.repeat(477000));
    const statuses = [];
    const until = Date.now() + ${seconds * 1000};
    let inFlight = 0;
    const finish = () => { if (--inFlight === 0) console.log(JSON.stringify(statuses)); };
    const send = () => {
      inFlight++;
      const req = http.request(${JSON.stringify(url)}, { method: 'POST', agent: false, headers: {
        ...${JSON.stringify(headers)}, 'content-length': body.length } },
        (res) => { res.resume(); res.on('end', () => { statuses.push(res.statusCode); next(); }); });
      req.on('error', () => { statuses.push(0); next(); });
      req.end(body);
    };
    const next = () => { if (Date.now() < until) send(); finish(); };
    for (let i = 0; i < ${FLOOD}; i++) send();`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<number[]>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out) as number[]);
      } catch {
        reject(new Error(`the flood printed ${out}`));
      }
    });
  });
}

/** One tools/list on a kept-alive connection; its latency in ms. */
function probe(t: Target, agent: Agent): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(t.url, { method: 'POST', headers: mcpHeaders(t), agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(LIST);
  });
}

async function probeWhile(t: Target, done: () => boolean): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  while (!done()) times.push(await probe(t, agent));
  agent.destroy();
  return times;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

export async function benchFlood(): Promise<string> {
  const warden = await startTarget('warden', 'warden.ts');
  const lines = [
    `tools/list of one member, one at a time, while ${FLOOD} POSTs of a 977 KB body of nested brackets are kept in flight for ${SECONDS} s (rate limits off)`,
    '',
    ['flood'.padEnd(30), 'probes', ' p50 ms', ' p99 ms', ' max ms', 'server CPU', 'flood answered'].join(
      '  ',
    ),
  ];
  let worst = 0;
  try {
    for (let i = 0; i < 50; i++) await probe(warden, new Agent()); // warm-up
    const quietUntil = performance.now() + SECONDS * 1000;
    const cpu0 = cpuMicros(warden.child.pid);
    const quiet = await probeWhile(warden, () => performance.now() > quietUntil);
    lines.push(row('none', quiet, cpuMicros(warden.child.pid) - cpu0, ''));
    for (const who of ['without a credential', 'with a member token'] as const) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(who === 'with a member token' ? { authorization: `Bearer ${warden.token}` } : {}),
      };
      let over = false;
      const cpu = cpuMicros(warden.child.pid);
      const answers = flood(warden.url, headers, SECONDS).finally(() => (over = true));
      await new Promise((r) => setTimeout(r, 200)); // the flood is on the wire
      const times = await probeWhile(warden, () => over);
      const spent = cpuMicros(warden.child.pid) - cpu;
      const counted = Object.entries(
        (await answers).reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}),
      )
        .map(([s, n]) => `${n}× ${s}`)
        .join(', ');
      worst = Math.max(worst, pct(times, 99));
      lines.push(row(who, times, spent, counted));
    }
  } finally {
    await stopTarget(warden);
  }
  lines.push(
    '',
    `p99 under the flood: ${worst.toFixed(1)} ms (target < ${FLOOD_P99_MS} ms) — ${worst < FLOOD_P99_MS ? 'met' : 'NOT met'}`,
  );
  return lines.join('\n');
}

function row(name: string, times: number[], cpu: number, answered: string): string {
  const ms = (x: number) => x.toFixed(1).padStart(7);
  const cells = [
    name.padEnd(30),
    String(times.length).padStart(6),
    ms(pct(times, 50)),
    ms(pct(times, 99)),
    ms(Math.max(...times)),
    `${(cpu / 1e6).toFixed(2).padStart(8)} s`,
    answered,
  ];
  return cells.join('  ');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchFlood()) + '\n');
}
