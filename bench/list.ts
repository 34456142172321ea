// npm run bench -- list: tools/list over HTTP for a member token, Warden beside plain
// node:http sending the very bytes Warden answers with, in one run. Rounds alternate the
// two targets (which one goes first alternates too), so the machine's noise hits both
// alike; the report gives the medians and the median of the per-round ratios.
// BENCH_PROFILE=DIR also writes a CPU profile of the Warden process (node --cpu-prof) there.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIST, load, mcpHeaders, median, startTarget, stopTarget, type Sample } from './load.ts';
import { profileTable, summariseProfile } from './profile.ts';

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
/** The floor Warden's tools/list holds against the plain server (issue 22). */
export const LIST_TARGET = 0.5;

export async function benchList(): Promise<string> {
  const profileDir = process.env['BENCH_PROFILE'];
  const prof = (name: string) =>
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`] : [];
  // BENCH_BUILD=dist: Warden as shipped (compiled by npm run build) rather than its sources under tsx.
  const dist = process.env['BENCH_BUILD'] === 'dist';
  const warden = await startTarget('warden', dist ? 'warden-dist.js' : 'warden.ts', [], prof('warden'));
  const res = await fetch(warden.url, { method: 'POST', headers: mcpHeaders(warden), body: LIST });
  const bytes = Buffer.from(await res.arrayBuffer());
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'list.json');
  writeFileSync(bodyFile, bytes);
  const plain = await startTarget('node:http', 'static.ts', [bodyFile], prof('plain'));
  const w: Sample[] = [];
  const p: Sample[] = [];
  const ratios: number[] = [];
  try {
    w.push(await load(warden, LIST, CONNECTIONS, 1)); // warm-up: its figures are left out below
    p.push(await load(plain, LIST, CONNECTIONS, 1));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? ([plain, warden] as const) : ([warden, plain] as const);
      const got = new Map<string, Sample>();
      for (const t of order) got.set(t.name, await load(t, LIST, CONNECTIONS, DURATION_S));
      w.push(got.get('warden')!);
      p.push(got.get('node:http')!);
      ratios.push(got.get('warden')!.rps / got.get('node:http')!.rps);
    }
  } finally {
    await stopTarget(warden);
    await stopTarget(plain);
  }
  const served = (s: Sample[]) => s.reduce((n, x) => n + x.requests, 0);
  const timed = (s: Sample[]) => s.slice(1);
  const row = (name: string, s: Sample[]) =>
    `${name.padEnd(10)} ${median(s.map((x) => x.rps))
      .toFixed(0)
      .padStart(7)}  ${median(s.map((x) => x.p50))
      .toFixed(1)
      .padStart(6)}  ${median(s.map((x) => x.p99))
      .toFixed(1)
      .padStart(6)}  ${median(s.map((x) => x.cpuPerRequest))
      .toFixed(1)
      .padStart(14)}`;
  const ratio = median(ratios);
  return [
    `tools/list, member token: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S}s per target, medians; body ${bytes.length} bytes`,
    '',
    'target       req/s  p50 ms  p99 ms  CPU µs/request',
    row('warden', timed(w)),
    row('node:http', timed(p)),
    '',
    `Warden / node:http: median of per-round ratios ${ratio.toFixed(2)}× (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}); target ≥ ${LIST_TARGET}× — ${ratio >= LIST_TARGET ? 'met' : 'NOT met'}`,
    ...(profileDir
      ? [
          '',
          ...profileTable(
            ['warden', summariseProfile(join(profileDir, 'warden'), served(w))],
            ['node:http', summariseProfile(join(profileDir, 'plain'), served(p))],
          ),
          `(profiles in ${profileDir}; every request served, warm-up included, divides each process's time)`,
        ]
      : []),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchList()) + '\n');
}
