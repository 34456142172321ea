// Where a server's CPU time goes, from a V8 CPU profile (node --cpu-prof): self time by the
// kind of work its frames do, in microseconds per request served. Used by `npm run bench --
// list` with BENCH_PROFILE set, on Warden and on plain node:http in the same run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The kinds, first match wins, by the frame's file or function. */
const KINDS: [kind: string, test: (url: string, fn: string) => boolean][] = [
  ['idle', (_u, f) => f === '(idle)'],
  [
    'start-up (module loading)',
    (u, f) => /modules\/|esm\/|cjs-module-lexer/.test(u) || f === 'compileSourceTextModule',
  ],
  [
    'writing the response (writev)',
    (_u, f) => f === 'writev' || f === 'writevGeneric' || f === 'writeGeneric',
  ],
  ['garbage collection', (_u, f) => f === '(garbage collector)'],
  ['store: the credential query and its rows', (u) => /src\/store\/|better-sqlite3/.test(u)],
  ['authentication and permissions', (u) => /src\/server\/auth\.ts|src\/core\/|internal\/crypto/.test(u)],
  [
    'reading and screening the body',
    (u) => /http-io|http-body|src\/server\/screen|streams\/|gate\/dist/.test(u),
  ],
  ['the fast path (tools/list bytes)', (u) => /src\/server\/fast-path|internal\/buffer|node:buffer/.test(u)],
  ['the edge steps and guards', (u) => /src\/server\//.test(u)],
  ['node:http (parsing, headers)', (u) => /_http_|node:net|node:events|internal\/timers|async_hooks/.test(u)],
  ['V8 and the rest', () => true],
];

/** Self time per kind (µs per request) of the newest profile of the main thread in `dir`. */
export function summariseProfile(dir: string, requests: number): Map<string, number> {
  // Under tsx a second profile belongs to its loader thread; the main thread's is the largest.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => readFileSync(b).length - readFileSync(a).length);
  if (!files[0]) throw new Error(`no .cpuprofile in ${dir}`);
  const p = JSON.parse(readFileSync(files[0], 'utf8')) as Profile;
  const kindOf = new Map<number, string>();
  for (const n of p.nodes) {
    const { url, functionName } = n.callFrame;
    kindOf.set(n.id, KINDS.find(([, test]) => test(url, functionName))![0]);
  }
  const out = new Map<string, number>(KINDS.map(([k]) => [k, 0]));
  for (let i = 0; i < p.samples.length; i++) {
    const kind = kindOf.get(p.samples[i]!)!;
    out.set(kind, out.get(kind)! + (p.timeDeltas[i] ?? 0));
  }
  for (const [k, us] of out) out.set(k, us / requests);
  return out;
}

/** Two summaries side by side, busy time only (idle and start-up left out). */
export function profileTable(a: [string, Map<string, number>], b: [string, Map<string, number>]): string[] {
  const skip = new Set(['idle', 'start-up (module loading)']);
  const busy = (m: Map<string, number>) =>
    [...m].filter(([k]) => !skip.has(k)).reduce((s, [, v]) => s + v, 0);
  const lines = [
    `CPU per request (µs, self time, from --cpu-prof)      ${a[0].padStart(9)} ${b[0].padStart(9)}`,
  ];
  for (const [kind] of KINDS) {
    if (skip.has(kind)) continue;
    const x = a[1].get(kind) ?? 0;
    const y = b[1].get(kind) ?? 0;
    if (x < 0.05 && y < 0.05) continue;
    lines.push(`  ${kind.padEnd(48)} ${x.toFixed(1).padStart(9)} ${y.toFixed(1).padStart(9)}`);
  }
  lines.push(
    `  ${'busy in all'.padEnd(48)} ${busy(a[1]).toFixed(1).padStart(9)} ${busy(b[1]).toFixed(1).padStart(9)}`,
  );
  return lines;
}
