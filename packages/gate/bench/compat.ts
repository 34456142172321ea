// The compat gate benchmark: classification and replay throughput against json-schema-diff
// and jsoncompat on the same pairs, and where each engine agrees with Warden's verdicts.
// Run alone: node --import tsx bench/compat.ts
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonSchemaDiff from 'json-schema-diff';
import { check_compat, initSync } from 'jsoncompat';
import { seeded } from '../src/compat/generate/chooser.ts';
import { generate } from '../src/compat/generate/value.ts';
import {
  compareSchemas,
  parseCalls,
  replay,
  type Direction,
  type Json,
  type Schema,
  type Tool,
} from '../src/compat/index.ts';
import { clearValidatorCache } from '../src/compat/validator.ts';
import { corpus, type Pair } from './compat-corpus.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RULE_FIXTURES = path.join(HERE, '..', 'test', 'fixtures', 'compat', 'rules');
const CORPUS_SIZE = 10_000;
const SUBSET_SIZE = 150;
const STRIDE = 67;
const CALLS = 100_000;
const RUNS = 3;
const ROUNDS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function initJsoncompat(): void {
  const wasm = createRequire(import.meta.url).resolve('jsoncompat/jsoncompat_wasm_bg.wasm');
  initSync({ module: fs.readFileSync(wasm) });
}

type Binary = 'breaking' | 'compatible' | 'n/a';

async function jsdVerdict(old: Schema, now: Schema, direction: Direction): Promise<Binary> {
  try {
    const r = await jsonSchemaDiff.diffSchemas({
      sourceSchema: old as never,
      destinationSchema: now as never,
    });
    return (direction === 'input' ? r.removalsFound : r.additionsFound) ? 'breaking' : 'compatible';
  } catch {
    return 'n/a';
  }
}

function jcVerdict(old: Schema, now: Schema, direction: Direction): Binary {
  try {
    return check_compat(
      JSON.stringify(old),
      JSON.stringify(now),
      direction === 'input' ? 'deserializer' : 'serializer',
    )
      ? 'compatible'
      : 'breaking';
  } catch {
    return 'n/a';
  }
}

/** Pairs per second over `pairs`, median of `runs` cold runs (validator cache cleared). */
async function throughput(
  pairs: Pair[],
  classify: (p: Pair) => unknown,
  runs: number,
): Promise<{ perSecond: number; applied: number }> {
  const rates: number[] = [];
  let applied = 0;
  for (let run = 0; run < runs; run++) {
    clearValidatorCache();
    compareSchemas({ type: 'object' }, { type: 'object', properties: {} }, 'input'); // Ajv start-up, not per-pair work
    applied = 0;
    const t = performance.now();
    for (const p of pairs) if ((await classify(p)) !== 'n/a') applied++;
    rates.push(pairs.length / ((performance.now() - t) / 1000));
  }
  return { perSecond: median(rates), applied };
}

/** Calls recorded against the old schemas, to be replayed against the new manifest. */
function callsFor(pairs: Pair[], tools: Tool[], count: number): string {
  const r = seeded(7);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const tool = tools[i % tools.length] as Tool;
    const schema = (pairs[i % tools.length] as Pair).old;
    const args = generate(schema, { root: schema, dialect: '2020-12', choose: r, extras: false }) ?? {};
    lines.push(JSON.stringify({ tool: tool.name, arguments: args as Json }));
  }
  return lines.join('\n');
}

interface AgreementRow {
  family: string;
  ours: string;
  jsd: Binary;
  jc: Binary;
}

async function agreementTable(): Promise<AgreementRow[]> {
  const rows: AgreementRow[] = [];
  for (const name of fs.readdirSync(RULE_FIXTURES).sort()) {
    const dir = path.join(RULE_FIXTURES, name);
    const read = (f: string): Schema => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Schema;
    const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
      family: string;
      direction: Direction;
      strictOpenObjects?: boolean;
    };
    const [old, now] = [read('base.json'), read('head.json')];
    const ours = compareSchemas(old, now, expected.direction, {
      strictOpenObjects: expected.strictOpenObjects,
    }).verdict;
    rows.push({
      family: `${name} (${expected.direction})`,
      ours,
      jsd: await jsdVerdict(old, now, expected.direction),
      jc: jcVerdict(old, now, expected.direction),
    });
  }
  return rows;
}

function mark(ours: string, theirs: Binary): string {
  if (theirs === 'n/a') return 'n/a (error)';
  if (ours === 'unknown') return `${theirs} (ours: unknown)`;
  return theirs === ours ? 'agrees' : `DIFFERS: ${theirs}`;
}

/** Runs the whole benchmark and returns its report. */
export async function benchCompat(): Promise<string> {
  initJsoncompat();
  const out: string[] = ['## compat gate', ''];
  const pairs = corpus(CORPUS_SIZE);
  // A stride coprime with the number of edit families, so the sample covers every family evenly.
  const subset = pairs.filter((_, i) => i % STRIDE === 0).slice(0, SUBSET_SIZE);
  // The ratios: the three engines on the same pairs, interleaved round by round so that a change
  // in machine load hits all of them alike; the median of the per-round ratios is reported.
  const oursOn = (p: Pair): string => compareSchemas(p.old, p.new, 'input').verdict;
  for (const p of subset.slice(0, 20)) {
    oursOn(p);
    await jsdVerdict(p.old, p.new, 'input');
    jcVerdict(p.old, p.new, 'input');
  }
  // The full corpus first, so that Warden is as warm in the rounds below as the others are after
  // the warm-up above.
  const oursFull = await throughput(pairs, oursOn, RUNS);
  const rounds: { ours: number; jsd: number; jc: number; jsdApplied: number; jcApplied: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ours = await throughput(subset, oursOn, 1);
    const jsd = await throughput(subset, (p) => jsdVerdict(p.old, p.new, 'input'), 1);
    const jc = await throughput(subset, (p) => jcVerdict(p.old, p.new, 'input'), 1);
    rounds.push({
      ours: ours.perSecond,
      jsd: jsd.perSecond,
      jc: jc.perSecond,
      jsdApplied: jsd.applied,
      jcApplied: jc.applied,
    });
  }
  const med = (f: (r: (typeof rounds)[number]) => number): number => median(rounds.map(f));
  const last = rounds[rounds.length - 1] as (typeof rounds)[number];
  out.push(`Schema pairs classified per second:`);
  out.push(
    `  warden compat, full corpus of ${pairs.length} tool pairs: ${oursFull.perSecond.toFixed(0)} pairs/s (median of ${RUNS} cold runs)`,
  );
  out.push(
    `  on the same ${subset.length}-pair sample (every ${STRIDE}th pair), ${ROUNDS} interleaved rounds, medians:`,
  );
  out.push(
    `    warden compat     ${med((r) => r.ours)
      .toFixed(0)
      .padStart(7)} pairs/s`,
  );
  out.push(
    `    json-schema-diff  ${med((r) => r.jsd)
      .toFixed(0)
      .padStart(
        7,
      )} pairs/s  (applied to ${last.jsdApplied}/${subset.length}; warden is ${med((r) => r.ours / r.jsd).toFixed(1)}x)`,
  );
  out.push(
    `    jsoncompat        ${med((r) => r.jc)
      .toFixed(0)
      .padStart(
        7,
      )} pairs/s  (applied to ${last.jcApplied}/${subset.length}; warden is ${med((r) => r.ours / r.jc).toFixed(1)}x)`,
  );
  out.push(
    `  per-round ratios to json-schema-diff: ${rounds.map((r) => (r.ours / r.jsd).toFixed(1)).join(', ')}`,
  );
  out.push('  (target: >= 10x; warden includes witness verification and the sampling cross-check)');
  out.push('');

  const tools: Tool[] = pairs.slice(0, 25).map((p, i) => ({ name: `tool_${i}`, inputSchema: p.new }));
  const text = callsFor(pairs, tools, CALLS);
  const parsed = parseCalls(text);
  const replayRates: number[] = [];
  const endToEnd: number[] = [];
  let rejected = 0;
  for (let run = 0; run < 5; run++) {
    clearValidatorCache();
    let t = performance.now();
    rejected = replay(parsed, tools).rejected.length;
    replayRates.push(parsed.length / ((performance.now() - t) / 1000));
    t = performance.now();
    replay(parseCalls(text), tools);
    endToEnd.push(parsed.length / ((performance.now() - t) / 1000));
  }
  out.push(
    `Recorded calls replayed per second (${parsed.length} calls over ${tools.length} tools, median of 5 runs; ${rejected} rejected):`,
  );
  out.push(
    `  validation only: ${median(replayRates).toFixed(0)} calls/s; parsing the JSONL too: ${median(endToEnd).toFixed(0)} calls/s (target: >= 200000)`,
  );
  out.push('');

  const rows = await agreementTable();
  const agreeJsd = rows.filter((r) => r.ours !== 'unknown' && r.jsd === r.ours).length;
  const agreeJc = rows.filter((r) => r.ours !== 'unknown' && r.jc === r.ours).length;
  const decided = rows.filter((r) => r.ours !== 'unknown').length;
  out.push(
    `Agreement on the rule table (${rows.length} schema changes; identical counts as compatible for the others):`,
  );
  out.push(
    `  json-schema-diff agrees on ${agreeJsd}/${decided} that warden decides; jsoncompat on ${agreeJc}/${decided}.`,
  );
  out.push('');
  out.push('| change | warden | json-schema-diff | jsoncompat |');
  out.push('|---|---|---|---|');
  for (const r of rows) {
    const ours = r.ours === 'identical' ? 'compatible' : r.ours;
    out.push(`| ${r.family} | ${r.ours} | ${mark(ours, r.jsd)} | ${mark(ours, r.jc)} |`);
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(await benchCompat());
}
