import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { failed, runCampaign } from './campaign.ts';
import { minimiseExamples } from './examples.ts';
import { DOMAINS, exhaustiveReport, runExhaustive, type Domain, type ExhaustiveTally } from './exhaustive.ts';
import { FAMILIES } from './mutate.ts';
import { examples, progress, reasonTable, table } from './report.ts';

/** Names in lines of at most 96 characters, each line indented. */
function wrapped(names: string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const name of names) {
    const next = line === '' ? name : `${line}, ${name}`;
    if (indent.length + next.length > 96 && line !== '') {
      lines.push(`${indent}${line},`);
      line = name;
    } else line = next;
  }
  return [...lines, `${indent}${line}`].join('\n');
}

const USAGE = `usage: npm run fuzz -- [options]

Differential fuzzing: real schemas edited at random, each pair judged by the gate and checked
with Ajv alone. Prints a table per edit family and the minimised counterexamples.

  --pairs N       pairs to judge (default 2000)
  --seed S        the run's seed: the same seed gives the same pairs (default 1)
  --family NAME   one edit family only, of:
${wrapped(
  FAMILIES.map((f) => f.name),
  '                  ',
)}
  --json FILE     also write the tallies and examples as JSON
  --show K        counterexamples to minimise and print (default 3)
  --exhaustive    instead, nested combinators over small domains, each pair checked against
                  every value of its domain: ${DOMAINS.join(', ')} (N pairs of each)
  -h, --help      this text

Exits 1 on a wrong answer (permissive, false alarm, an invalid pair passed) or a crash, 2 on a
usage error.`;

/**
 * The differential fuzzer's command line:
 *   npm run fuzz -- --pairs 20000 --seed 1 [--family NAME] [--json FILE] [--show K]
 *   npm run fuzz -- --exhaustive [--pairs N] [--seed S]   (N pairs of each small domain, see exhaustive.ts)
 *   npm run fuzz -- --help
 * Exits 1 when the gate gave any wrong answer (permissive, false alarm, an invalid pair passed) or
 * crashed, 2 on a usage error.
 */
function main(): number {
  const { values } = parseArgs({
    options: {
      pairs: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      family: { type: 'string' },
      json: { type: 'string' },
      show: { type: 'string', default: '3' },
      exhaustive: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const pairs = Number(values.pairs);
  const seed = Number(values.seed);
  const show = Number(values.show);
  if (![pairs, seed, show].every(Number.isInteger))
    throw new Error('--pairs, --seed and --show take integers');
  if (values.exhaustive) return exhaustive(pairs, seed);
  const start = Date.now();
  const result = runCampaign({
    pairs,
    seed,
    family: values.family,
    keep: Math.max(show, 10),
    onProgress: (done, totals) =>
      process.stderr.write(`${progress(done, pairs, totals, Date.now() - start)}\n`),
  });
  process.stderr.write(`${progress(pairs, pairs, result.totals, result.elapsedMs)}\nfuzz: minimising…\n`);
  const list = minimiseExamples(result, show);
  const text = [
    `## Differential fuzzing: ${pairs} pairs, seed ${seed}${values.family ? `, family ${values.family}` : ''} (${(result.elapsedMs / 1000).toFixed(0)} s)`,
    '',
    table(result),
    '',
    reasonTable(result),
    '',
    reasonTable(result, 'refusals'),
    '',
    examples(result, list),
  ].join('\n');
  process.stdout.write(`${text}\n`);
  if (values.json) {
    const data = {
      options: result.options,
      families: Object.fromEntries(result.families),
      totals: result.totals,
      failures: result.failures,
      crashes: [...result.crashes].map(([message, v]) => ({ message, count: v.count, first: v.first })),
      examples: list,
    };
    fs.writeFileSync(values.json, `${JSON.stringify(data, null, 2)}\n`);
  }
  return failed(result) ? 1 : 0;
}

/** The exhaustive check over every domain: its table, and exit 1 on any wrong answer. */
function exhaustive(pairs: number, seed: number): number {
  const tallies = new Map<Domain, ExhaustiveTally>();
  for (const domain of DOMAINS) {
    const start = Date.now();
    tallies.set(domain, runExhaustive(domain, pairs, seed));
    process.stderr.write(
      `fuzz: exhaustive, ${domain}: ${pairs} pairs in ${((Date.now() - start) / 1000).toFixed(0)} s\n`,
    );
  }
  process.stdout.write(`${exhaustiveReport(seed, tallies)}\n`);
  return [...tallies.values()].some((t) => t.permissive + t.falseAlarm + t.crash > 0) ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (e) {
  // A usage error (an unknown family, a non-integer count): say it plainly, exit 2.
  process.stderr.write(`fuzz: ${e instanceof Error ? e.message : String(e)} (--help lists the options)\n`);
  process.exitCode = 2;
}
