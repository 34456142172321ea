// The gate on real published schemas only: tool schemas of consecutive npm releases of MCP
// servers (bench/data/npm-tools.json, made by bench/compat-npm-extract.ts) and every definition
// of consecutive MCP specification revisions (test/fixtures/compat/mcp-spec). Warden,
// json-schema-diff and jsoncompat on the same pairs: per pair and whole process, medians over
// repeated runs, and where they agree.
//
//   node --import tsx bench/compat-real.ts            the report (also part of npm run bench)
//   node --import tsx bench/compat-real.ts ENGINE     one engine over the corpus, once (a child)
//   node --import tsx bench/compat-real.ts none      only the start-up every child shares
//   node --import tsx bench/compat-real.ts alone I    the gate on pair I alone, as a process's first comparison
//   node --import tsx bench/compat-real.ts corpus DIR  the whole corpus as DIR/old.json and DIR/new.json, to profile
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type JsonSchemaDiff from 'json-schema-diff';
import type * as JsonCompat from 'jsoncompat';
import type * as GateLib from '../src/compat/index.ts';
import type { Direction, Schema } from '../src/compat/index.ts';
import { pruneDefinitions } from '../src/compat/prune.ts';
import type * as ValidatorLib from '../src/compat/validator.ts';
import { DATA, type Release } from './compat-npm-data.ts';
import { specPairs } from './compat-spec.ts';
import { judge } from '../fuzz/judge.ts';
import type { JsonObject } from '../fuzz/json.ts';
import { mixSeed, Rng } from '../fuzz/prng.ts';
import { CPU_HOOK, processCpu } from './process-cpu.ts';

interface RealPair {
  source: 'npm' | 'spec';
  name: string;
  direction: Direction;
  old: Schema;
  new: Schema;
}

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PROCESS_RUNS = Number(process.env.PROCESS_RUNS ?? 3);

/** Every changed inputSchema/outputSchema of a tool between consecutive releases, and the spec pairs. */
function realPairs(): RealPair[] {
  const out: RealPair[] = [];
  const { releases } = JSON.parse(fs.readFileSync(DATA, 'utf8')) as { releases: Release[] };
  for (let i = 0; i + 1 < releases.length; i++) {
    const [a, b] = [releases[i] as Release, releases[i + 1] as Release];
    if (a.package !== b.package) continue;
    const before = new Map(
      (a.tools as { name: string }[]).map((t) => [t.name, t as Record<string, unknown>]),
    );
    for (const t of b.tools as Record<string, unknown>[]) {
      const old = before.get(t.name as string);
      if (!old) continue;
      for (const [field, direction] of [
        ['inputSchema', 'input'],
        ['outputSchema', 'output'],
      ] as const) {
        if (old[field] === undefined || t[field] === undefined) continue;
        if (JSON.stringify(old[field]) === JSON.stringify(t[field])) continue;
        out.push({
          source: 'npm',
          name: `${b.package.replace('@modelcontextprotocol/', '')} ${t.name as string}.${field} ${a.version}→${b.version}`,
          direction,
          old: old[field] as Schema,
          new: t[field] as Schema,
        });
      }
    }
  }
  // Each definition with only the definitions it reaches (as a tool would ship it): the same
  // input for every engine, and none has to take in a whole specification per pair.
  for (const p of specPairs())
    out.push({
      source: 'spec',
      name: p.name,
      direction: 'input',
      old: structuredClone(pruneDefinitions(p.old)),
      new: structuredClone(pruneDefinitions(p.new)),
    });
  return out;
}

type Binary = 'breaking' | 'compatible' | 'n/a';

// The gate too is loaded only when it runs, like the other engines.
let gateLib: (typeof GateLib & typeof ValidatorLib) | undefined;
async function gate(): Promise<typeof GateLib & typeof ValidatorLib> {
  gateLib ??= {
    ...(await import('../src/compat/validator.ts')),
    ...(await import('../src/compat/index.ts')),
  };
  return gateLib;
}

async function warmInstances(): Promise<void> {
  const { compareSchemas } = await gate();
  for (const $schema of [
    'https://json-schema.org/draft/2020-12/schema',
    'http://json-schema.org/draft-07/schema#',
  ])
    compareSchemas({ $schema, type: 'string' }, { $schema, type: 'string', maxLength: 2 }, 'input');
}

function withoutDialect(s: Schema): Schema {
  if (typeof s !== 'object') return s;
  const { $schema: _drop, ...rest } = s;
  return rest;
}

// Each engine's module is loaded only when that engine runs, so a whole-process run of one
// engine never pays for loading another.
let jc: typeof JsonCompat | undefined;
async function jcVerdict(p: RealPair): Promise<Binary> {
  if (!jc) {
    jc = await import('jsoncompat');
    jc.initSync({
      module: fs.readFileSync(createRequire(import.meta.url).resolve('jsoncompat/jsoncompat_wasm_bg.wasm')),
    });
  }
  try {
    // jsoncompat reads 2020-12 only: its $schema stripped so it reads draft-07 schemas too.
    const ok = jc.check_compat(
      JSON.stringify(withoutDialect(p.old)),
      JSON.stringify(withoutDialect(p.new)),
      p.direction === 'input' ? 'deserializer' : 'serializer',
    );
    return ok ? 'compatible' : 'breaking';
  } catch {
    return 'n/a';
  }
}

let jsd: Pick<typeof JsonSchemaDiff, 'diffSchemas'> | undefined;
async function jsdVerdict(p: RealPair): Promise<Binary> {
  jsd ??= (await import('json-schema-diff')).default;
  try {
    const r = await jsd.diffSchemas({
      sourceSchema: p.old as never,
      destinationSchema: p.new as never,
    });
    return (p.direction === 'input' ? r.removalsFound : r.additionsFound) ? 'breaking' : 'compatible';
  } catch {
    return 'n/a';
  }
}

async function wardenVerdict(p: RealPair): Promise<string> {
  const { compareSchemas } = await gate();
  const v = compareSchemas(p.old, p.new, p.direction).verdict;
  return v === 'identical' ? 'compatible' : v;
}

const ENGINES = {
  warden: wardenVerdict,
  'json-schema-diff': jsdVerdict,
  jsoncompat: jcVerdict,
} as const;
type Engine = keyof typeof ENGINES;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** CPU time (user and system, all threads) of the last whole-process run of each engine. */
const wholeCpu = new Map<Engine | 'none', number>();

/** Runs one engine over the whole corpus in a fresh process (start-up, loading and all pairs); null when cut off. */
function wholeProcess(engine: Engine | 'none', limitMs: number): number | null {
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--import', CPU_HOOK, '--import', 'tsx', fileURLToPath(import.meta.url), engine],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: Math.ceil(limitMs),
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.error || r.status !== 0) return null;
  wholeCpu.set(engine, processCpu(r.stderr).cpuMs);
  return performance.now() - t;
}

/**
 * jsoncompat runs on every pair by default (about 30 ms a pair here, some 25 s a round);
 * JC_STRIDE=N keeps every npm pair and every N-th specification pair, for a quicker run.
 */
const JC_STRIDE = Number(process.env.JC_STRIDE ?? 1);

/** The report: per-pair and whole-corpus timings, and the agreement table. */
export async function benchCompatReal(): Promise<string> {
  const pairs = realPairs();
  const engines = Object.keys(ENGINES) as Engine[];
  let specSeen = 0;
  const sample = pairs.map((p) => p.source === 'npm' || specSeen++ % JC_STRIDE === 0);
  const runs = (e: Engine): number[] => pairs.map((_, i) => i).filter((i) => e !== 'jsoncompat' || sample[i]);
  const ms = Object.fromEntries(engines.map((e) => [e, pairs.map(() => [] as number[])])) as Record<
    Engine,
    number[][]
  >;
  const verdicts = Object.fromEntries(engines.map((e) => [e, pairs.map(() => 'n/a')])) as Record<
    Engine,
    string[]
  >;
  for (let round = 0; round < ROUNDS; round++) {
    for (const e of engines) {
      if (e === 'warden') {
        // Each round compiles its validators afresh. Creating the Ajv instances (formats, the
        // meta-schemas of both dialects) is a once-per-process cost, paid before the clock starts
        // rather than charged to whichever pair comes first; the whole-process runs include it.
        (await gate()).clearValidatorCache();
        await warmInstances();
      }
      let total = 0;
      for (const i of runs(e)) {
        const p = pairs[i] as RealPair;
        const t = performance.now();
        const v = await ENGINES[e](p);
        const d = performance.now() - t;
        total += d;
        (ms[e][i] as number[]).push(d);
        if (round === 0) verdicts[e][i] = v;
      }
      process.stderr.write(`compat-real: round ${round + 1}/${ROUNDS} ${e} ${total.toFixed(0)} ms\n`);
    }
  }
  const med = (e: Engine, i: number): number => median(ms[e][i] as number[]);
  const sum = (e: Engine, idx: number[]): number => idx.reduce((a, i) => a + med(e, i), 0);
  const all = pairs.map((_, i) => i);
  const sampled = all.filter((i) => sample[i]);
  const wardenProc: number[] = [];
  for (let run = 0; run < PROCESS_RUNS; run++) wardenProc.push(wholeProcess('warden', 600_000) ?? NaN);
  // Long enough for the slowest engine to finish on this machine, so the ratio is measured, not bounded.
  const limit = Math.max(300_000, 10 * median(wardenProc));
  const whole = new Map<Engine, number | null>([['warden', median(wardenProc)]]);
  // jsoncompat's whole process is measured in rounds beside the gate's command line (its median here).
  const manifest = manifestPairReport(pairs, limit);
  whole.set('jsoncompat', manifest.jsoncompat);
  const proc = (e: Engine): string => {
    if (!whole.has(e)) whole.set(e, wholeProcess(e, limit));
    const t = whole.get(e);
    return t === null || t === undefined
      ? `> ${(limit / 1000).toFixed(0)} s (stopped)`
      : `${t.toFixed(0)} ms`;
  };
  const out: string[] = [];
  const npm = pairs.filter((p) => p.source === 'npm').length;
  out.push(
    `real corpus: ${pairs.length} pairs: ${npm} changed tool schemas (input and output) between consecutive npm releases of server-filesystem, server-memory and server-everything, and ${pairs.length - npm} definitions between consecutive MCP specification revisions. Per-pair times are medians of ${ROUNDS} interleaved rounds; jsoncompat runs on ${JC_STRIDE === 1 ? 'every pair' : `a sample of ${sampled.length} pairs (every npm pair, every ${JC_STRIDE}th spec pair)`}. Whole process: warden and jsoncompat medians of ${PROCESS_RUNS} runs, json-schema-diff one run, stopped at ${(limit / 1000).toFixed(0)} s.`,
  );
  out.push('');
  out.push(
    '| engine | all pairs, in process | sample, in process | whole process (all pairs) | median pair | slowest pair | pairs over 50 ms |',
  );
  out.push('|---|---|---|---|---|---|---|');
  for (const e of engines) {
    const idx = e === 'jsoncompat' ? sampled : all;
    const pp = idx.map((i) => med(e, i));
    const slow = Math.max(...pp);
    const slowName = pairs[idx[pp.indexOf(slow)] as number]?.name ?? '';
    out.push(
      `| ${e} | ${e === 'jsoncompat' && JC_STRIDE !== 1 ? '—' : `${sum(e, all).toFixed(0)} ms`} | ${sum(e, sampled).toFixed(0)} ms | ${proc(e)} | ${median(pp).toFixed(2)} ms | ${slow.toFixed(1)} ms (${slowName}) | ${pp.filter((x) => x > 50).length} of ${pp.length} |`,
    );
  }
  out.push('');
  out.push(
    JC_STRIDE === 1
      ? `in process, over all pairs, warden is ${(sum('json-schema-diff', all) / sum('warden', all)).toFixed(1)}× faster than json-schema-diff and ${(sum('jsoncompat', all) / sum('warden', all)).toFixed(1)}× faster than jsoncompat`
      : `on the sample, warden is ${(sum('json-schema-diff', sampled) / sum('warden', sampled)).toFixed(1)}× faster than json-schema-diff and ${(sum('jsoncompat', sampled) / sum('warden', sampled)).toFixed(1)}× faster than jsoncompat; on all pairs, ${(sum('json-schema-diff', all) / sum('warden', all)).toFixed(1)}× json-schema-diff`,
  );
  out.push('');
  out.push(wholeRatios(whole));
  out.push('', manifest.text);
  out.push('');
  const count = (v: string): number => verdicts.warden.filter((x) => x === v).length;
  out.push(
    `warden verdicts: ${count('compatible')} compatible, ${count('breaking')} breaking, ${count('unknown')} unknown`,
  );
  out.push('');
  out.push(
    '| warden says | n | json-schema-diff agrees | differs | n/a | jsoncompat (sample) n | agrees | differs | n/a |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const ours of ['compatible', 'breaking', 'unknown']) {
    const idx = all.filter((i) => verdicts.warden[i] === ours);
    if (idx.length === 0) continue;
    const cells = (e: Engine, among: number[]): string => {
      const theirs = among.map((i) => verdicts[e][i]);
      const na = theirs.filter((v) => v === 'n/a').length;
      const agree = theirs.filter((v) => v === ours).length;
      return `${agree} | ${theirs.length - na - agree} | ${na}`;
    };
    const inSample = idx.filter((i) => sample[i]);
    out.push(
      `| ${ours} | ${idx.length} | ${cells('json-schema-diff', idx)} | ${inSample.length} | ${cells('jsoncompat', inSample)} |`,
    );
  }
  // Where an engine differs from a decided verdict of the gate, which pairs (every breaking
  // verdict of the gate carries a witness the validator confirmed).
  for (const e of ['json-schema-diff', 'jsoncompat'] as const) {
    const differ = all.filter(
      (i) =>
        (e !== 'jsoncompat' || sample[i]) &&
        verdicts[e][i] !== 'n/a' &&
        verdicts.warden[i] !== 'unknown' &&
        verdicts[e][i] !== verdicts.warden[i],
    );
    if (differ.length > 0)
      out.push(
        '',
        `${e} differs on: ${differ.map((i) => `${(pairs[i] as RealPair).name} (warden ${verdicts.warden[i]}, ${e} ${verdicts[e][i]})`).join('; ')}`,
      );
  }
  out.push('', oracleReport(pairs), '');
  out.push(
    aloneReport(
      pairs,
      all.map((i) => med('warden', i)),
    ),
  );
  return out.join('\n');
}

/**
 * Every real pair judged by the differential fuzzer's oracle (Ajv alone, sharing no code with
 * the engine): a compatible verdict with a value the old side accepts and the new rejects, or a
 * breaking finding whose witness Ajv does not confirm, is a wrong answer.
 */
function oracleReport(pairs: RealPair[]): string {
  const counts: Record<string, number> = {};
  const wrong: string[] = [];
  pairs.forEach((p, i) => {
    const c = { old: p.old as JsonObject, new: p.new as JsonObject, direction: p.direction, strict: false };
    const j = judge(c, new Rng(mixSeed(20261202, i)));
    counts[j.outcome] = (counts[j.outcome] ?? 0) + 1;
    if (j.outcome !== 'ok' && j.outcome !== 'unknown') wrong.push(`${p.name}: ${j.outcome}`);
  });
  const said = Object.entries(counts)
    .map(([o, n]) => `${n} ${o}`)
    .join(', ');
  return `the fuzzer's oracle (Ajv alone) on every real pair: ${said}; wrong answers: ${wrong.length === 0 ? 'none' : wrong.join('; ')}`;
}

/** The corpus as two manifests in `dir`, a tool per pair, its schema as inputSchema or outputSchema by direction. */
function writeManifestPair(pairs: RealPair[], dir: string): [string, string] {
  const side = (which: 'old' | 'new'): string => {
    const tools = pairs.map((p, i) => ({
      name: `pair_${i}`,
      ...(p.direction === 'input'
        ? { inputSchema: p[which] }
        : { inputSchema: { type: 'object' }, outputSchema: p[which] }),
    }));
    const file = path.join(dir, `${which}.json`);
    fs.writeFileSync(file, JSON.stringify({ tools }));
    return file;
  };
  return [side('old'), side('new')];
}

/**
 * The whole corpus as one manifest pair (a tool per pair, its schema as inputSchema or
 * outputSchema by direction), judged by the gate's own command line as a user runs it, side by
 * side with jsoncompat's whole-process run over the same pairs: PROCESS_RUNS rounds, each the
 * gate then jsoncompat, so both meet the same load; the ratio is each round's, then the median
 * of the rounds (on a shared machine the load moves both engines more than anything else).
 */
function manifestPairReport(pairs: RealPair[], limitMs: number): { text: string; jsoncompat: number | null } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-corpus-'));
  const [oldFile, newFile] = writeManifestPair(pairs, dir);
  const bin = fileURLToPath(new URL('../bin/warden-gate.js', import.meta.url));
  const rounds: { ms: number; cpuMs: number; jc: number | null; jcCpu: number }[] = [];
  /** Per round, another build's CPU time over this tree's (GATE_AGAINST). */
  const againstCpu: number[] = [];
  let verdict = 'n/a';
  for (let run = 0; run < PROCESS_RUNS; run++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['--import', CPU_HOOK, bin, 'diff', oldFile, newFile, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const ms = performance.now() - t;
    const { cpuMs, stderr } = processCpu(r.stderr);
    // Exit 1 (breaking) and 2 (unknown) are answers too; its JSON is on stdout. Exit 3 is not.
    // A run that printed no report measured nothing: say so, with the gate's own line.
    verdict =
      r.status === 0
        ? 'compatible or identical'
        : r.stdout.startsWith('{')
          ? (JSON.parse(r.stdout) as { verdict: string }).verdict
          : `FAILED (${stderr.trim().split('\n')[0]})`;
    if (AGAINST) againstCpu.push(gateCpu(AGAINST, oldFile, newFile) / cpuMs);
    const jc = wholeProcess('jsoncompat', limitMs);
    rounds.push({ ms, cpuMs, jc, jcCpu: wholeCpu.get('jsoncompat') ?? NaN });
    process.stderr.write(
      `compat-real: manifest pair, round ${run + 1}/${PROCESS_RUNS}: warden-gate ${ms.toFixed(0)} ms, jsoncompat ${jc === null ? 'did not finish' : `${jc.toFixed(0)} ms`}\n`,
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const [w, c] = [median(rounds.map((r) => r.ms)), median(rounds.map((r) => r.cpuMs))];
  const finished = rounds.filter((r) => r.jc !== null);
  const byRound = finished.map((r) => `${((r.jc as number) / r.ms).toFixed(1)}×`).join(', ');
  const ratio =
    finished.length === 0
      ? 'jsoncompat did not finish'
      : `jsoncompat's whole process ${median(finished.map((r) => r.jc as number)).toFixed(0)} ms and ${median(finished.map((r) => r.jcCpu)).toFixed(0)} ms of CPU (medians); per round, jsoncompat's time over the gate's: ${byRound}; median **${median(finished.map((r) => (r.jc as number) / r.ms)).toFixed(1)}× by the wall clock, ${median(finished.map((r) => r.jcCpu / r.cpuMs)).toFixed(1)}× by CPU time**`;
  const against = AGAINST
    ? `; beside ${AGAINST} in the same rounds, its CPU time over this tree's: ${againstCpu.map((x) => `${x.toFixed(2)}×`).join(', ')}, median **${median(againstCpu).toFixed(2)}×** (above 1: this tree is faster)`
    : '';
  return {
    text: `the whole corpus as one manifest pair (${pairs.length} tools), \`warden-gate diff\` as a whole process: ${w.toFixed(0)} ms, ${c.toFixed(0)} ms of CPU (user and system, all threads; medians of ${PROCESS_RUNS} rounds, verdict ${verdict}); ${ratio}${against}`,
    jsoncompat: finished.length === 0 ? null : median(finished.map((r) => r.jc as number)),
  };
}

/**
 * Another build of the gate to time beside this one on the same manifest pair, in the same
 * rounds: `GATE_AGAINST=/elsewhere/packages/gate/bin/warden-gate.js npm run bench -- compat-real`.
 */
const AGAINST = process.env['GATE_AGAINST'] ? path.resolve(process.env['GATE_AGAINST']) : undefined;

/** CPU time of one whole `diff` by the given gate executable. */
function gateCpu(bin: string, oldFile: string, newFile: string): number {
  const r = spawnSync(process.execPath, ['--import', CPU_HOOK, bin, 'diff', oldFile, newFile, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return processCpu(r.stderr).cpuMs;
}

/**
 * Whole-process ratios, raw and net of the harness: every child starts Node, loads TypeScript
 * through tsx and reads the corpus before its engine runs; a child that does only that is timed
 * too (median of 3), so the ratio of the engines' own work can be told from the start-up they share.
 */
function wholeRatios(whole: Map<Engine, number | null>): string {
  const harness = median([0, 1, 2].map(() => wholeProcess('none', 60_000) ?? NaN));
  const w = whole.get('warden') ?? NaN;
  const parts = (['jsoncompat', 'json-schema-diff'] as const).map((e) => {
    const t = whole.get(e);
    if (t === null || t === undefined) return `${e}: did not finish`;
    return `${e} ${(t / w).toFixed(1)}× warden's time (net of start-up ${((t - harness) / (w - harness)).toFixed(1)}×)`;
  });
  return `whole process: ${parts.join('; ')}; the shared start-up (Node, tsx, reading the corpus) is ${harness.toFixed(0)} ms`;
}

/**
 * The slowest pairs again, each alone in a fresh process as its first comparison: nothing
 * compiled yet, the JIT cold. A gate run over a whole manifest pays this once, not per pair.
 */
function aloneReport(pairs: RealPair[], perPair: number[]): string {
  const slowest = perPair
    .map((ms, i) => ({ ms, i }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
  const rows = slowest.map(({ i }) => {
    const runs = [0, 1, 2].map((): number => {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), 'alone', String(i)],
        {
          encoding: 'utf8',
        },
      );
      return Number(out.trim());
    });
    return `${(pairs[i] as RealPair).name}: ${median(runs).toFixed(0)} ms`;
  });
  return `the three slowest pairs alone, each the first comparison of a fresh process (median of 3): ${rows.join('; ')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const engine = process.argv[2] as Engine | 'alone' | undefined;
  if (engine === 'alone') {
    const p = realPairs()[Number(process.argv[3])] as RealPair;
    // A small comparison first, so start-up (the Ajv instances, the meta-schemas) is not counted.
    await warmInstances();
    const { compareSchemas } = await gate();
    const t = performance.now();
    compareSchemas(p.old, p.new, p.direction);
    console.log(performance.now() - t);
  } else if ((engine as string) === 'corpus') {
    const dir = process.argv[3] ?? '.';
    fs.mkdirSync(dir, { recursive: true });
    console.log(writeManifestPair(realPairs(), dir).join('\n'));
  } else if ((engine as string) === 'none') {
    realPairs(); // the start-up every engine's child shares
  } else if (engine) {
    const run = ENGINES[engine];
    if (!run) throw new Error(`unknown engine ${engine}`);
    for (const p of realPairs()) await run(p);
  } else {
    console.log(await benchCompatReal());
  }
}
