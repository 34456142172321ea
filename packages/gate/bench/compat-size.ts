// Size against time, whole process: `warden-gate diff OLD NEW --json` through the built bin on
// a wide object (10,000 properties alike beside 100, and 10,000 distinct ones, of varied types
// and bounds, beside 100 distinct: no leaf built once can stand for another), a 100,000-value
// enum and a 1,000-branch oneOf of consts (each beside a one-property diff), each with one small
// change. Runs are taken in turns
// (every case, then again), timed by the wall clock and by the child's own CPU time; medians
// with their spread (lowest to highest). Run `node build.js` first: the bin runs the bundle.
//
//   npm run bench -- compat-size
//   GATE_AGAINST=/elsewhere/packages/gate/bin/warden-gate.js npm run bench -- compat-size
//     the same cases through another build of the gate too, side by side in the same turns
//
// Beside each case, Ajv alone compiling the new side's schema once (plain Ajv 8 in a fresh
// process, CPU time, the start-up of that process removed): the floor of a build that compiles
// the whole document. The gate builds a wide object's leaves apart, only those a value it checks
// holds (src/compat/wide.ts), so on the wide cases it goes under that floor.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  distinctPropertiesCase,
  enumCase,
  oneOfConstsCase,
  propertiesCase,
  type HostileCase,
} from './compat-hostile-inputs.ts';
import { CPU_HOOK, processCpu } from './process-cpu.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const HERE_BIN = path.join(ROOT, 'bin', 'warden-gate.js');
const RUNS = Number(process.env.RUNS ?? 5);
const TARGET = 3;

interface Case {
  label: string;
  c: HostileCase;
  /** The case this one is measured against (undefined: it is a baseline). */
  against?: string;
  /** The verdict and deciding rule the answer must carry. */
  verdict: string;
  rule: string;
}

const CASES: Case[] = [
  { label: 'tiny', c: propertiesCase(1), verdict: 'breaking', rule: 'property-became-required' },
  { label: '100 properties', c: propertiesCase(100), verdict: 'breaking', rule: 'property-became-required' },
  {
    label: '10,000 properties',
    c: propertiesCase(10_000),
    against: '100 properties',
    verdict: 'breaking',
    rule: 'property-became-required',
  },
  {
    label: '100 distinct properties',
    c: distinctPropertiesCase(100),
    verdict: 'breaking',
    rule: 'property-became-required',
  },
  {
    label: '10,000 distinct properties',
    c: distinctPropertiesCase(10_000),
    against: '100 distinct properties',
    verdict: 'breaking',
    rule: 'property-became-required',
  },
  {
    label: 'enum of 100,000',
    c: enumCase(100_000),
    against: 'tiny',
    verdict: 'breaking',
    rule: 'enum-value-removed',
  },
  {
    label: 'oneOf of 1,000 consts',
    c: oneOfConstsCase(1000),
    against: 'tiny',
    verdict: 'breaking',
    rule: 'any-of-branch-removed',
  },
];

interface Sample {
  wall: number;
  cpu: number;
  problem?: string;
}

function runOnce(bin: string, oldFile: string, newFile: string, want: Case): Sample {
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_HOOK, bin, 'diff', oldFile, newFile, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wall = performance.now() - start;
  const { cpuMs, stderr } = processCpu(r.stderr);
  let problem: string | undefined;
  try {
    const doc = JSON.parse(r.stdout) as {
      servers: { items: { verdict: string; findings: { rule: string; witness: unknown }[] }[] }[];
    };
    const tool = doc.servers[0]?.items[0];
    const f = tool?.findings.find((x) => x.rule === want.rule);
    if (tool?.verdict !== want.verdict) problem = `verdict ${tool?.verdict ?? 'none'}`;
    else if (!f) problem = `no ${want.rule} finding`;
    else if (want.verdict === 'breaking' && f.witness === null) problem = 'no witness';
  } catch {
    problem = `no JSON on stdout (${stderr.trim().split('\n')[0] ?? ''})`;
  }
  return { wall, cpu: cpuMs, problem };
}

/** Ajv alone: CPU time to compile the schema once, in a fresh process, less the process's own start. */
function ajvFloor(schemaFile: string): number {
  const script = `
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const schema = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(schemaFile)}, 'utf8'));
    const before = process.cpuUsage();
    if (schema !== null) new Ajv2020({ strict: false, allErrors: true, code: { optimize: false } }).compile(schema);
    const u = process.cpuUsage(before);
    process.stdout.write(String((u.user + u.system) / 1000));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return Number(r.stdout);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

const spread = (xs: number[]): string => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;

export async function benchCompatSize(): Promise<string> {
  const bins: [string, string][] = [['this tree', HERE_BIN]];
  const other = process.env.GATE_AGAINST;
  if (other) bins.push(['against', path.resolve(other)]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-size-'));
  try {
    const files = new Map<string, [string, string, string]>();
    for (const k of CASES) {
      const base = path.join(dir, k.label.replace(/\W+/g, '-'));
      fs.writeFileSync(`${base}-old.json`, JSON.stringify(k.c.old));
      fs.writeFileSync(`${base}-new.json`, JSON.stringify(k.c.new));
      fs.writeFileSync(`${base}-schema.json`, JSON.stringify(k.c.new.tools[0]?.inputSchema ?? null));
      files.set(k.label, [`${base}-old.json`, `${base}-new.json`, `${base}-schema.json`]);
    }
    const got = new Map<string, Sample[]>();
    const key = (bin: string, label: string): string => `${bin}\n${label}`;
    for (let run = 0; run < RUNS; run++)
      for (const k of CASES)
        for (const [name, bin] of run % 2 ? [...bins].reverse() : bins) {
          const [o, n] = files.get(k.label) as [string, string, string];
          const list = got.get(key(name, k.label)) ?? [];
          list.push(runOnce(bin, o, n, k));
          got.set(key(name, k.label), list);
        }
    const floorOf = new Map(
      CASES.map((k) => [k.label, ajvFloor((files.get(k.label) as string[])[2] as string)]),
    );
    const rows: string[] = [];
    const verdicts: string[] = [];
    for (const [name] of bins)
      for (const k of CASES) {
        const s = got.get(key(name, k.label)) as Sample[];
        const wall = s.map((x) => x.wall),
          cpu = s.map((x) => x.cpu);
        let ratio = '',
          cpuRatio = '';
        if (k.against) {
          const b = got.get(key(name, k.against)) as Sample[];
          const [rw, rc] = [
            median(wall) / median(b.map((x) => x.wall)),
            median(cpu) / median(b.map((x) => x.cpu)),
          ];
          ratio = `${rw.toFixed(1)}×`;
          cpuRatio = `${rc.toFixed(1)}×`;
          verdicts.push(
            `${name}, ${k.label} against ${k.against}: ${rc <= TARGET ? 'within' : 'NOT within'} ${TARGET}× by CPU, ${rw <= TARGET ? 'within' : 'NOT within'} by the wall clock`,
          );
        }
        const problems = [...new Set(s.flatMap((x) => (x.problem ? [x.problem] : [])))];
        rows.push(
          `| ${name} | ${k.label} | ${Math.round(median(wall))} (${spread(wall)}) | ${ratio} | ${Math.round(median(cpu))} (${spread(cpu)}) | ${cpuRatio} | ${Math.round(floorOf.get(k.label) as number)} | ${problems.length ? `WRONG: ${problems.join('; ')}` : 'as it must'} |`,
        );
      }
    return [
      `Whole process, \`warden-gate diff OLD NEW --json\`, ${RUNS} runs per case in turns; medians in ms (lowest–highest). The ratio is to the case named in the bench's table (10,000 properties to 100, distinct ones to 100 distinct; the enum and the oneOf to the tiny diff); target within ${TARGET}×. Ajv floor: plain Ajv compiling the new schema once, CPU ms, start-up excluded.`,
      '',
      '| build | case | wall ms | ratio | CPU ms | CPU ratio | Ajv floor | answer |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      ...verdicts.map((v) => `- ${v}`),
    ].join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(`${await benchCompatSize()}\n`);
}
