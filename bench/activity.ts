// npm run bench -- activity: what recording every tools/call costs, and what the Activity
// page costs when it holds 10,000 calls instead of 10.
// 1. tools/call (club_info, member token) over HTTP with the activity record on, beside
//    the same server with it off (the store's recordActivity does nothing), in one run.
// 2. GET /console/activity signed in as a member with 10 recorded calls, as one with
//    10,000 (first page, and a page deep in them).
// Rounds alternate the targets (which one goes first alternates too), so the machine's
// noise hits both alike; the report gives medians and the median of per-round ratios.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { CALL, cpuMicros, load, median, startTarget, stopTarget, type Sample, type Target } from './load.ts';

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const PAGE_CONNECTIONS = 8;
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
/** Recording may cost tools/call at most a tenth of its throughput (issue 23). */
const RECORDING_TARGET = 0.9;
/** A page of 10,000 calls loads as fast as a page of calls of a small record: within this share. */
const PAGE_TARGET = 0.8;

const fixed = (n: number, digits: number, width: number) => n.toFixed(digits).padStart(width);
const row = (name: string, s: Measured[], width: number) =>
  `${name.padEnd(width)} ${fixed(median(s.map((x) => x.rps)), 0, 7)}  ${fixed(median(s.map((x) => x.p50)), 1, 6)}  ${fixed(median(s.map((x) => x.p99)), 1, 6)}  ${fixed(median(s.map((x) => x.cpuPerRequest)), 1, 14)}  ${fixed(median(s.map((x) => x.loopPerRequest)), 1, 15)}`;

/**
 * CPU of a process's main thread so far (the event loop that answers every request), in
 * µs, from /proc (Linux); NaN elsewhere. The SQLite writer thread is not in it.
 */
function loopMicros(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** A sample with the main thread's CPU per request beside the process's. */
type Measured = Sample & { loopPerRequest: number };

async function measured(t: Target, run: () => Promise<Sample>): Promise<Measured> {
  const loop0 = loopMicros(t.child.pid);
  const s = await run();
  return { ...s, loopPerRequest: (loopMicros(t.child.pid) - loop0) / s.requests };
}

/** GETs `url` with a session cookie on `connections` connections for `seconds`; any non-2xx fails the run. */
async function loadPage(t: Target, url: string, cookie: string, seconds: number): Promise<Sample> {
  const cpu0 = cpuMicros(t.child.pid);
  const r = await autocannon({ url, headers: { cookie }, connections: PAGE_CONNECTIONS, duration: seconds });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    cpuPerRequest: (cpuMicros(t.child.pid) - cpu0) / r.requests.total,
  };
}

async function recordingCost(): Promise<string[]> {
  const on = await startTarget('recording', 'activity.ts', ['on']);
  const off = await startTarget('not recording', 'activity.ts', ['off']);
  const got: Record<string, Measured[]> = { [on.name]: [], [off.name]: [] };
  const ratios: number[] = [];
  try {
    await load(on, CALL, CONNECTIONS, 1); // warm-up, left out
    await load(off, CALL, CONNECTIONS, 1);
    for (let round = 0; round < ROUNDS; round++) {
      const here: Record<string, Measured> = {};
      for (const t of round % 2 ? [off, on] : [on, off]) {
        here[t.name] = await measured(t, () => load(t, CALL, CONNECTIONS, DURATION_S));
        got[t.name]!.push(here[t.name]!);
      }
      ratios.push(here[on.name]!.rps / here[off.name]!.rps);
    }
  } finally {
    await stopTarget(on);
    await stopTarget(off);
  }
  const ratio = median(ratios);
  return [
    `tools/call (club_info, member token), activity recorded or not: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S}s per target, medians`,
    '',
    'target           req/s  p50 ms  p99 ms  CPU µs/request  loop µs/request',
    row(on.name, got[on.name]!, 14),
    row(off.name, got[off.name]!, 14),
    '',
    `recording / not recording: median of per-round ratios ${ratio.toFixed(2)}× (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}); target ≥ ${RECORDING_TARGET}× — ${ratio >= RECORDING_TARGET ? 'met' : 'NOT met'}`,
    '(CPU: every thread of the server process, the SQLite writer thread included; loop: the main thread alone)',
  ];
}

const FULL = '30 (a full page)';
const MANY = '10,000 calls';
const DEEP = '10,000, deep page';

async function pageCost(): Promise<string[]> {
  type PageTarget = Target & { deepUrl: string; few: string; page: string; many: string };
  const t = (await startTarget('console', 'activity-page.ts')) as PageTarget;
  const cases = [
    { name: '10 calls', url: t.url, cookie: t.few },
    { name: FULL, url: t.url, cookie: t.page },
    { name: MANY, url: t.url, cookie: t.many },
    { name: DEEP, url: t.deepUrl, cookie: t.many },
  ];
  const got = new Map<string, Measured[]>(cases.map((c) => [c.name, []]));
  const ratios = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  try {
    for (const c of cases) await loadPage(t, c.url, c.cookie, 1); // warm-up, left out
    for (let round = 0; round < ROUNDS; round++) {
      const here = new Map<string, Measured>();
      for (const c of round % 2 ? [...cases].reverse() : cases) {
        here.set(c.name, await measured(t, () => loadPage(t, c.url, c.cookie, DURATION_S)));
        got.get(c.name)!.push(here.get(c.name)!);
      }
      for (const c of cases) ratios.get(c.name)!.push(here.get(c.name)!.rps / here.get(FULL)!.rps);
    }
  } finally {
    await stopTarget(t);
  }
  const ratio = (name: string) => median(ratios.get(name)!);
  const met = ratio(MANY) >= PAGE_TARGET && ratio(DEEP) >= PAGE_TARGET;
  return [
    `GET /console/activity, signed in (30 calls a page): ${PAGE_CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S}s per case, medians`,
    '',
    'records                 req/s  p50 ms  p99 ms  CPU µs/request  loop µs/request',
    ...cases.map((c) => row(c.name, got.get(c.name)!, 21)),
    '',
    `against a full page of 30 calls (median of per-round ratios of req/s): ${cases
      .filter((c) => c.name !== FULL)
      .map((c) => `${c.name} ${ratio(c.name).toFixed(2)}×`)
      .join(', ')}; target for 10,000 (first and deep page) ≥ ${PAGE_TARGET}× — ${met ? 'met' : 'NOT met'}`,
    '(a page draws 30 calls, or all there are: the page of 10 draws a third of the rows, which is what it saves)',
  ];
}

export async function benchActivity(): Promise<string> {
  return [...(await recordingCost()), '', ...(await pageCost())].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchActivity()) + '\n');
}
