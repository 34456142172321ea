import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { failed, runCampaign } from './campaign.ts';
import { minimiseExamples } from './examples.ts';
import { DOMAINS, exhaustiveReport, runExhaustive, type Domain, type ExhaustiveTally } from './exhaustive.ts';
import { examples, progress, reasonTable, table } from './report.ts';

/**
 * The differential fuzzer's command line:
 *   npm run fuzz -- --pairs 20000 --seed 1 [--family NAME] [--json FILE] [--show K]
 *   npm run fuzz -- --exhaustive [--pairs N] [--seed S]   (N pairs of each small domain, see exhaustive.ts)
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
    },
  });
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
  process.stderr.write(`fuzz: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
