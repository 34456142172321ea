// npm run bench (server part): Warden vs (a) the documented SDK v2 pattern and (b) plain
// node:http with a static body, measured side by side in one run on loopback. Each target
// runs in its own process; the load generator (autocannon) runs here. Rounds interleave
// the targets and the report takes medians, so machine noise hits all three alike.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIST_TARGET } from './list.ts';
import {
  CALL,
  LIST,
  load as loadWith,
  mcpHeaders,
  median,
  startTarget,
  type Sample,
  type Target,
} from './load.ts';

const CONNECTIONS = 32;
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

const load = (t: Target, body: string): Promise<Sample> => loadWith(t, body, CONNECTIONS, DURATION_S);

export async function benchServer(): Promise<string> {
  const warden = await startTarget('warden', 'warden.ts');
  const wardenSdkPath = await startTarget('warden, SDK path', 'warden.ts', ['sdk-path']);
  const sdk = await startTarget('sdk-v2 documented', 'sdk-baseline.ts');
  // The ceiling answers with the very bytes Warden answers tools/list with.
  const res = await fetch(warden.url, { method: 'POST', headers: mcpHeaders(warden), body: LIST });
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'warden-bench-')), 'list.json');
  const bytes = Buffer.from(await res.arrayBuffer());
  writeFileSync(bodyFile, bytes);
  const ceiling = await startTarget('node:http static', 'static.ts', [bodyFile]);
  const targets = [warden, wardenSdkPath, sdk, ceiling];
  const results = new Map<string, Sample[]>();
  try {
    for (const t of targets) await load(t, LIST); // warm-up, discarded
    for (let round = 0; round < ROUNDS; round++) {
      for (const op of ['tools/list', 'tools/call'] as const) {
        for (const t of targets) {
          if (op === 'tools/call' && t === ceiling) continue;
          const key = `${op}|${t.name}`;
          const sample = await load(t, op === 'tools/list' ? LIST : CALL);
          results.set(key, [...(results.get(key) ?? []), sample]);
        }
      }
    }
  } finally {
    for (const t of targets) t.child.kill('SIGTERM');
  }
  const med = (op: string, name: string) => {
    const s = results.get(`${op}|${name}`) ?? [];
    return {
      rps: median(s.map((x) => x.rps)),
      p50: median(s.map((x) => x.p50)),
      p99: median(s.map((x) => x.p99)),
    };
  };
  const lines = [
    `Server: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S}s per target and operation, medians; tools/list body ${bytes.length} bytes`,
    '',
    'operation   target               req/s     p50 ms   p99 ms',
  ];
  for (const op of ['tools/list', 'tools/call']) {
    for (const t of targets) {
      if (op === 'tools/call' && t === ceiling) continue;
      const m = med(op, t.name);
      lines.push(
        `${op.padEnd(11)} ${t.name.padEnd(20)} ${m.rps.toFixed(0).padStart(7)}  ${m.p50.toFixed(1).padStart(7)}  ${m.p99.toFixed(1).padStart(7)}`,
      );
    }
  }
  const w = med('tools/list', 'warden');
  const a = med('tools/list', sdk.name);
  const b = med('tools/list', ceiling.name);
  const wc = med('tools/call', 'warden');
  const ac = med('tools/call', sdk.name);
  lines.push(
    '',
    `tools/list: Warden / documented SDK = ${(w.rps / a.rps).toFixed(1)}× (target ≥ 10×); Warden / node:http ceiling = ${(w.rps / b.rps).toFixed(2)}× (target ≥ ${LIST_TARGET}×; npm run bench -- list measures it alone); Warden p99 ${w.p99.toFixed(1)} ms (target < 50)`,
    `tools/call: Warden / documented SDK = ${(wc.rps / ac.rps).toFixed(1)}×; Warden p99 ${wc.p99.toFixed(1)} ms`,
    `Warden without its fast path (every request through SDK v2, per-request low-level Server): tools/list ${(med('tools/list', wardenSdkPath.name).rps / a.rps).toFixed(1)}× the documented SDK, ${(med('tools/list', wardenSdkPath.name).rps / b.rps).toFixed(2)}× the ceiling`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((await benchServer()) + '\n');
}
