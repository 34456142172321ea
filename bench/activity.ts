// npm run bench -- activity activity-page: what recording every tools/call costs, and
// what the Activity page costs when it holds 10,000 calls instead of 10.
// 1. `activity`: tools/call (club_info, member token) over HTTP with the activity record on, beside
//    the same server with it off (the store's recordActivity does nothing), in one run.
// 2. `activity-page`: GET /console/activity signed in as member X, with 10,000 recorded calls (first page,
//    and a page deep in them), beside member Y with 10: the same page, whole requests;
//    and Z with 30, whose page draws as many rows as X's, to tell the rows from the record;
//    then the same pages as a person loads them: Debian's Chromium navigating to each, timed by
//    the browser (navigation start to the load event), one load at a time.
// Rounds alternate the targets (which one goes first alternates too), so the machine's
// noise hits both alike; the report gives medians and the median of per-round ratios.
import { existsSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { CHROMIUM, launchBrowser } from '../test/helpers/chromium.ts';
import { CALL, cpuMicros, load, median, startTarget, stopTarget, type Sample, type Target } from './load.ts';

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const PAGE_CONNECTIONS = 8;
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
/** Recording may cost tools/call at most a tenth of its throughput (issue 23). */
const RECORDING_TARGET = 0.9;
/** A page of 10,000 recorded calls loads as fast as one of 10 (issue 23): Y's page at most this many times faster. */
const PAGE_TARGET = 1.2;
/** Loads of each page in Chromium, alternating between the pages. */
const BROWSER_LOADS = Number(process.env['BENCH_LOADS'] ?? 60);

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

const FEW = 'Y: 10 calls';
const FULL = 'Z: 30 calls';
const MANY = 'X: 10,000 calls';
const DEEP = 'X: 10,000, deep page';

/**
 * The same page for two members, side by side: X, whose agents made 10,000 calls, and
 * Y, whose agents made 10. Y's page draws 10 rows, X's a full page of 30, so the ratio
 * holds what 20 more rows cost as well as what 10,000 stored calls cost. Z, with 30
 * calls, draws X's 30 rows from a small record: X against Z is what the 10,000 cost alone.
 */
async function pageCost(): Promise<string[]> {
  type PageTarget = Target & { deepUrl: string; few: string; page: string; many: string };
  const t = (await startTarget('console', 'activity-page.ts')) as PageTarget;
  const cases = [
    { name: FEW, url: t.url, cookie: t.few },
    { name: FULL, url: t.url, cookie: t.page },
    { name: MANY, url: t.url, cookie: t.many },
    { name: DEEP, url: t.deepUrl, cookie: t.many },
  ];
  const got = new Map<string, Measured[]>(cases.map((c) => [c.name, []]));
  // Per round: how many times faster Y's page was than each (and Z's than X's).
  const ratios = new Map<string, number[]>([
    ...cases.map((c) => [c.name, []] as [string, number[]]),
    ['Z/X', []],
  ]);
  let browser: string[];
  try {
    for (const c of cases) await loadPage(t, c.url, c.cookie, 1); // warm-up, left out
    for (let round = 0; round < ROUNDS; round++) {
      const here = new Map<string, Measured>();
      for (const c of round % 2 ? [...cases].reverse() : cases) {
        here.set(c.name, await measured(t, () => loadPage(t, c.url, c.cookie, DURATION_S)));
        got.get(c.name)!.push(here.get(c.name)!);
      }
      for (const c of cases) ratios.get(c.name)!.push(here.get(FEW)!.rps / here.get(c.name)!.rps);
      ratios.get('Z/X')!.push(here.get(FULL)!.rps / here.get(MANY)!.rps);
    }
    browser = await browserLoads(cases);
  } finally {
    await stopTarget(t);
  }
  const ratio = (name: string) => median(ratios.get(name)!);
  const met = ratio(MANY) <= PAGE_TARGET && ratio(DEEP) <= PAGE_TARGET;
  const cpu = (name: string) => median(got.get(name)!.map((x) => x.cpuPerRequest));
  return [
    `GET /console/activity, signed in, whole request with the session cookie: ${PAGE_CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S}s per case, medians`,
    '',
    'member                  req/s  p50 ms  p99 ms  CPU µs/request  loop µs/request',
    ...cases.map((c) => row(c.name, got.get(c.name)!, 21)),
    '',
    `Y's page (10 calls) against X's (10,000), median of per-round ratios of req/s: ${[MANY, DEEP]
      .map((name) => `${name} ${ratio(name).toFixed(2)}×`)
      .join(', ')}; target ≤ ${PAGE_TARGET}× for both — ${met ? 'met' : 'NOT met'}`,
    `the 10,000 stored alone (Z's 30 rows against X's 30): ${ratio('Z/X').toFixed(2)}×; the 20 rows more alone (Y against Z): ${ratio(FULL).toFixed(2)}×, ${((cpu(FULL) - cpu(FEW)) / 20).toFixed(1)} µs of CPU a row`,
    '',
    ...browser,
  ];
}

/**
 * The same pages as a person loads them: one Chromium tab (a background tab is throttled, so
 * one tab serves every page, its session cookie set before each load) navigates to each in
 * turn, the order alternating, one load at a time, and the browser's own navigation timing is
 * read: the response received, the document ready, the load event ended. Medians, and the
 * median of per-round ratios of the load against Y's page.
 */
async function browserLoads(cases: { name: string; url: string; cookie: string }[]): Promise<string[]> {
  if (!existsSync(CHROMIUM))
    return [`no Chromium at ${CHROMIUM}: the pages as a browser loads them were not measured`];
  const browser = await launchBrowser();
  type Timing = { response: number; ready: number; load: number };
  const got = new Map<string, Timing[]>(cases.map((c) => [c.name, []]));
  const ratios = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const open = async (c: (typeof cases)[number]): Promise<Timing> => {
      const [name, value] = c.cookie.split(/=(.*)/s) as [string, string];
      await context.addCookies([{ name, value, url: c.url }]);
      const res = await page.goto(c.url, { waitUntil: 'load' });
      if (res?.status() !== 200) throw new Error(`${c.url}: ${res?.status() ?? 'no response'} in Chromium`);
      return page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return {
          response: nav.responseEnd - nav.startTime,
          ready: nav.domContentLoadedEventEnd - nav.startTime,
          load: nav.loadEventEnd - nav.startTime,
        };
      });
    };
    for (const c of cases) await open(c); // warm-up, left out
    for (let round = 0; round < BROWSER_LOADS; round++) {
      const here = new Map<string, Timing>();
      for (const c of round % 2 ? [...cases].reverse() : cases) here.set(c.name, await open(c));
      for (const c of cases) {
        got.get(c.name)!.push(here.get(c.name)!);
        ratios.get(c.name)!.push(here.get(c.name)!.load / here.get(FEW)!.load);
      }
    }
  } finally {
    await browser.close();
  }
  const ratio = (name: string) => median(ratios.get(name)!);
  const met = ratio(MANY) <= PAGE_TARGET && ratio(DEEP) <= PAGE_TARGET;
  const ms = (name: string, k: keyof Timing) => fixed(median(got.get(name)!.map((x) => x[k])), 1, 8);
  return [
    `the same pages as a person loads them: Chromium, one tab, one load at a time, ${BROWSER_LOADS} loads of each, as the browser times them from navigation start (ms, medians)`,
    '',
    'member                 response     ready      load',
    ...cases.map(
      (c) => `${c.name.padEnd(21)} ${ms(c.name, 'response')}  ${ms(c.name, 'ready')}  ${ms(c.name, 'load')}`,
    ),
    '',
    `X's page (10,000 calls) against Y's (10) as loaded in Chromium, median of per-round ratios: ${[
      MANY,
      DEEP,
    ]
      .map((name) => `${name} ${ratio(name).toFixed(2)}×`)
      .join(
        ', ',
      )} (Z's 30 rows ${ratio(FULL).toFixed(2)}×); target ≤ ${PAGE_TARGET}× for both — ${met ? 'met' : 'NOT met'}`,
  ];
}

/** `npm run bench -- activity`: what recording costs tools/call. */
export async function benchActivity(): Promise<string> {
  return (await recordingCost()).join('\n');
}

/** `npm run bench -- activity-page`: the Activity page of 10,000 recorded calls beside one of 10. */
export async function benchActivityPage(): Promise<string> {
  return (await pageCost()).join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchActivity()) + '\n');
}
