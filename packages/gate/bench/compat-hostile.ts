// Hostile manifests against the compat gate, each beside its small counterpart: whole processes
// (`warden gate diff OLD NEW --json` on temporary files, median of 3 runs, run in turns, timed by
// the wall clock and by the child's own CPU time) and the same comparison in process, with the
// ratio big / small. A ratio near 1 means the input's size costs nothing; the target is within 3x.
// Every run's JSON output is checked too: a case only counts when the gate answered it as it must.
//
//   npm run bench -- compat-hostile        (or: node --import tsx bench/compat-hostile.ts)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as GateLib from '../src/compat/index.ts';
import type * as ValidatorLib from '../src/compat/validator.ts';
import {
  deepCase,
  enumCase,
  manyToolsCase,
  oneOfCase,
  propertiesCase,
  type HostileCase,
} from './compat-hostile-inputs.ts';
import { CPU_HOOK, processCpu } from './process-cpu.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const WARDEN = path.join(ROOT, 'bin', 'warden-gate.js');
const RUNS = Number(process.env.RUNS ?? 3);
const TARGET = 3;

interface Output {
  verdict: string;
  tools: { name: string; verdict: string; findings: { rule: string; message: string; witness: unknown }[] }[];
}

/** A hostile case, its small counterpart, and what each answer must be. */
interface Pair {
  big: HostileCase;
  small: HostileCase;
  /** Why an answer is wrong, or undefined when it is right. */
  check(out: Output, big: boolean): string | undefined;
}

/** The one tool's verdict is `verdict`, its deciding finding `rule`, with a witness when breaking. */
function oneTool(verdict: (big: boolean) => string, rule: (big: boolean) => string): Pair['check'] {
  return (out, big) => {
    const tool = out.tools[0];
    if (out.tools.length !== 1 || !tool) return `${out.tools.length} tools in the output`;
    if (tool.verdict !== verdict(big)) return `verdict ${tool.verdict}, expected ${verdict(big)}`;
    const f = tool.findings.find((x) => x.rule === rule(big));
    if (!f) return `no ${rule(big)} finding`;
    if (verdict(big) === 'breaking' && f.witness === null) return 'a breaking finding without a witness';
    return undefined;
  };
}

const PAIRS: Pair[] = [
  {
    big: deepCase(10_000),
    small: deepCase(10),
    check: oneTool(
      (big) => (big ? 'unknown' : 'breaking'),
      (big) => (big ? 'schema-too-deep' : 'type-narrowed'),
    ),
  },
  {
    big: enumCase(100_000),
    small: enumCase(2),
    check: oneTool(
      () => 'breaking',
      () => 'enum-value-removed',
    ),
  },
  {
    big: oneOfCase(1000),
    small: oneOfCase(2),
    check: oneTool(
      () => 'breaking',
      () => 'any-of-branch-removed',
    ),
  },
  {
    big: propertiesCase(10_000),
    small: propertiesCase(10),
    check: oneTool(
      () => 'breaking',
      () => 'property-became-required',
    ),
  },
  {
    big: manyToolsCase(50, 'a definition that refers to itself'),
    small: manyToolsCase(50),
    check(out, big) {
      if (out.tools.length !== (big ? 51 : 50)) return `${out.tools.length} tools in the output`;
      if (!big) return undefined;
      const bad = out.tools.find((t) => t.name === 'invalid');
      if (bad?.verdict !== 'unknown') return `the invalid tool is ${bad?.verdict ?? 'missing'}`;
      return bad.findings.some((f) => f.message.length > 0) ? undefined : 'no reason for the invalid tool';
    },
  },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

const ms = (x: number): string => `${Math.round(x)} ms`;
const ratio = (a: number, b: number): string => `${(a / b).toFixed(1)}×`;

/** One `gate diff --json` as a whole process: its wall and CPU time and parsed output. */
function runProcess(
  oldFile: string,
  newFile: string,
): { ms: number; cpuMs: number; out: Output | undefined; err: string } {
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_HOOK, WARDEN, 'diff', oldFile, newFile, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const elapsed = performance.now() - start;
  const { cpuMs, stderr } = processCpu(r.stderr);
  let out: Output | undefined;
  try {
    // The report lists items per server; the cases here have one server, whose items are tools.
    const doc = JSON.parse(r.stdout) as { verdict: string; servers: { items: Output['tools'] }[] };
    out = { verdict: doc.verdict, tools: doc.servers.flatMap((s) => s.items) };
  } catch {
    out = undefined;
  }
  return { ms: elapsed, cpuMs, out, err: stderr.trim() };
}

interface Measured {
  process: number;
  cpu: number;
  inProcess: number;
  problem?: string;
}

export async function benchCompatHostile(): Promise<string> {
  const gate = (await import('../src/compat/index.ts')) as typeof GateLib;
  const validator = (await import('../src/compat/validator.ts')) as typeof ValidatorLib;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-hostile-'));
  try {
    const write = (name: string, doc: unknown): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, gate.jsonText(doc));
      return file;
    };
    const empty = write('empty.json', { tools: [] });
    const starts = Array.from({ length: RUNS }, () => runProcess(empty, empty));
    const startup = median(starts.map((r) => r.ms));
    const startupCpu = median(starts.map((r) => r.cpuMs));

    /** The same comparison in this process: fresh copies of the files and no compiled validators. */
    const inProcess = (oldFile: string, newFile: string): number => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const [a, b] = [oldFile, newFile].map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as unknown);
        validator.clearValidatorCache();
        const start = performance.now();
        gate.compareManifests(a as GateLib.Json, b as GateLib.Json);
        times.push(performance.now() - start);
      }
      return median(times);
    };

    const rows: string[] = [];
    const notes: string[] = [];
    let met = 0;
    let metCpu = 0;
    for (const [i, pair] of PAIRS.entries()) {
      const files = (c: HostileCase, size: string): [string, string] => [
        write(`${i}-${size}-old.json`, c.old),
        write(`${i}-${size}-new.json`, c.new),
      ];
      const big = files(pair.big, 'big'),
        small = files(pair.small, 'small');
      const times = { big: [] as number[], small: [] as number[] };
      const cpu = { big: [] as number[], small: [] as number[] };
      const problems = new Set<string>();
      // In turns, so a change of machine load falls on both alike.
      for (let run = 0; run < RUNS; run++) {
        for (const [size, [o, n]] of [
          ['small', small],
          ['big', big],
        ] as const) {
          const r = runProcess(o, n);
          times[size].push(r.ms);
          cpu[size].push(r.cpuMs);
          const problem = r.out
            ? pair.check(r.out, size === 'big')
            : `no JSON on stdout (${r.err.split('\n')[0] ?? ''})`;
          if (problem) problems.add(`${size}: ${problem}`);
        }
      }
      const m: Record<'big' | 'small', Measured> = {
        big: { process: median(times.big), cpu: median(cpu.big), inProcess: inProcess(...big) },
        small: { process: median(times.small), cpu: median(cpu.small), inProcess: inProcess(...small) },
      };
      if (m.big.process / m.small.process <= TARGET && problems.size === 0) met++;
      if (m.big.cpu / m.small.cpu <= TARGET && problems.size === 0) metCpu++;
      rows.push(
        `| ${pair.big.name} (${pair.big.what}) | ${pair.small.name} | ${ms(m.small.process)} | ${ms(m.big.process)} | ${ratio(m.big.process, m.small.process)} | ${ms(m.small.cpu)} | ${ms(m.big.cpu)} | ${ratio(m.big.cpu, m.small.cpu)} | ${ms(m.small.inProcess)} | ${ms(m.big.inProcess)} | ${problems.size === 0 ? 'as it must' : 'WRONG'} |`,
      );
      for (const p of problems) notes.push(`${pair.big.name}: ${p}`);
    }
    const lines = [
      `Each case is \`warden gate diff OLD NEW --json\` as a whole process, median of ${RUNS} runs taken in turns with its small counterpart, timed by the wall clock and by the process's own CPU time (user and system, all threads: what other load on the machine does not stretch); in process is compareManifests alone on the parsed files, no validator compiled yet (median of ${RUNS}). Every whole process pays the same start-up (Node loading the gate's bundle, a diff of two empty manifests): ${ms(startup)} here, ${ms(startupCpu)} of CPU.`,
      '',
      '| hostile case | small counterpart | small, whole process | hostile, whole process | ratio | small, CPU | hostile, CPU | CPU ratio | small, in process | hostile, in process | answer |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `${met} of ${PAIRS.length} cases answered as they must within ${TARGET}× of their small counterpart as whole processes by the wall clock, ${metCpu} by CPU time.`,
      ...notes.map((n) => `- ${n}`),
    ];
    return lines.join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(`${await benchCompatHostile()}\n`);
}
