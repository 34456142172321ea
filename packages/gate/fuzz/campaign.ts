import { seedCorpus } from './corpus.ts';
import { judge, type Case, type Judgement, type Outcome } from './judge.ts';
import { familyNamed, FAMILIES, mutatePair, type Pair } from './mutate.ts';
import { mixSeed, Rng } from './prng.ts';

/** What a run is asked to do. */
export interface CampaignOptions {
  pairs: number;
  seed: number;
  /** Only this edit family. */
  family?: string;
  /** How many failures to keep per class and family (all distinct crash messages are kept). */
  keep: number;
  /** Called every few seconds with the tallies so far. */
  onProgress?: (done: number, totals: Tally) => void;
}

/** Counts of one family (or of the whole run). */
export interface Tally {
  pairs: number;
  judged: number;
  outcomes: Record<Outcome, number>;
  /** Unknown comparisons by reason (see unknownReasons); one comparison may count under several. */
  reasons: Record<string, number>;
  /** Refused comparisons by reason, likewise. */
  refusals: Record<string, number>;
  slowestMs: number;
  /** Where the slowest comparison came from. */
  slowest?: { pair: number; direction: string; strict: boolean };
}

/** A wrong answer of the gate (or a crash), with what reproduces it. */
export interface Failure {
  family: string;
  seed: string;
  pair: number;
  case: Case;
  judgement: Judgement;
}

/** The tallies and kept failures of a run. */
export interface CampaignResult {
  options: Omit<CampaignOptions, 'onProgress'>;
  families: Map<string, Tally>;
  totals: Tally;
  failures: Failure[];
  /** Every distinct crash message, with its count and first occurrence. */
  crashes: Map<string, { count: number; first: Failure }>;
  /** The first error of the fuzzer's own, if any (those cases are counted, not judged). */
  firstFuzzerError?: string;
  elapsedMs: number;
}

/** Every outcome a judgement can have. */
const OUTCOMES: Outcome[] = [
  'ok',
  'permissive',
  'false-alarm',
  'invalid-compatible',
  'unknown',
  'refused',
  'crash',
  'fuzzer-error',
];
/** The outcomes that are wrong answers of the gate. */
export const FAILING: Outcome[] = ['permissive', 'false-alarm', 'invalid-compatible', 'crash'];

function emptyTally(): Tally {
  return {
    pairs: 0,
    judged: 0,
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>,
    reasons: {},
    refusals: {},
    slowestMs: 0,
  };
}

/**
 * The cases one pair is judged in: both orientations for input under the default policy, and,
 * for about one pair in four each, an output comparison and a strict open-objects comparison.
 */
function casesOf(rng: Rng, old: Case['old'], neu: Case['new']): Case[] {
  const cases: Case[] = [
    { old, new: neu, direction: 'input', strict: false },
    { old: neu, new: old, direction: 'input', strict: false },
  ];
  if (rng.chance(0.25)) {
    const [a, b] = rng.chance(0.5) ? [old, neu] : [neu, old];
    cases.push({ old: a, new: b, direction: 'output', strict: false });
  }
  if (rng.chance(0.25)) {
    const [a, b] = rng.chance(0.5) ? [old, neu] : [neu, old];
    cases.push({ old: a, new: b, direction: 'input', strict: true });
  }
  return cases;
}

/** Judges a case; an error of the fuzzer's own is recorded as such instead of ending the run. */
function judgeSafely(c: Case, rng: Rng): Judgement {
  try {
    return judge(c, rng);
  } catch (e) {
    return {
      outcome: 'fuzzer-error',
      ms: 0,
      reason: e instanceof Error ? (e.stack ?? e.message) : String(e),
    };
  }
}

/**
 * Runs the differential fuzzer: pair i is mutated and judged with a generator seeded by
 * (seed, i) alone, so any pair is reproduced by the same seed whatever else ran.
 */
export function runCampaign(options: CampaignOptions): CampaignResult {
  const seeds = seedCorpus();
  const family = options.family !== undefined ? familyNamed(options.family) : undefined;
  const families = new Map(
    FAMILIES.filter((f) => !family || f === family).map((f) => [f.name, emptyTally()]),
  );
  const totals = emptyTally();
  const failures: Failure[] = [];
  const kept = new Map<string, number>();
  const crashes = new Map<string, { count: number; first: Failure }>();
  const start = Date.now();
  let lastProgress = start;
  let firstFuzzerError: string | undefined;
  for (let i = 0; i < options.pairs; i++) {
    const rng = new Rng(mixSeed(options.seed, i));
    let pair: Pair;
    try {
      pair = mutatePair(rng, seeds, family);
    } catch (e) {
      totals.outcomes['fuzzer-error']++;
      firstFuzzerError ??= e instanceof Error ? (e.stack ?? e.message) : String(e);
      continue;
    }
    const tally = families.get(pair.family) as Tally;
    tally.pairs++;
    totals.pairs++;
    casesOf(rng, pair.old, pair.new).forEach((c, k) => {
      const j = judgeSafely(c, rng.fork(k));
      for (const t of [tally, totals]) {
        t.judged++;
        t.outcomes[j.outcome]++;
        const by = j.outcome === 'refused' ? t.refusals : t.reasons;
        for (const r of j.reasons ?? []) by[r] = (by[r] ?? 0) + 1;
        if (j.ms > t.slowestMs) {
          t.slowestMs = j.ms;
          t.slowest = { pair: i, direction: c.direction, strict: c.strict };
        }
      }
      if (j.outcome === 'fuzzer-error') firstFuzzerError ??= j.reason;
      if (!FAILING.includes(j.outcome)) return;
      const failure: Failure = { family: pair.family, seed: pair.seed, pair: i, case: c, judgement: j };
      if (j.outcome === 'crash') {
        const message = j.crash?.message ?? '';
        const seen = crashes.get(message);
        if (seen) seen.count++;
        else crashes.set(message, { count: 1, first: failure });
      }
      const key = `${j.outcome}\u0000${pair.family}`;
      const n = kept.get(key) ?? 0;
      if (n < options.keep) {
        kept.set(key, n + 1);
        failures.push(failure);
      }
    });
    if (options.onProgress && Date.now() - lastProgress > 4000) {
      lastProgress = Date.now();
      options.onProgress(i + 1, totals);
    }
  }
  const { onProgress: _omit, ...rest } = options;
  return {
    options: rest,
    families,
    totals,
    failures,
    crashes,
    firstFuzzerError,
    elapsedMs: Date.now() - start,
  };
}

/** Whether a run found any wrong answer (permissive, false alarm, invalid pair passed, crash). */
export function failed(result: CampaignResult): boolean {
  return FAILING.some((o) => result.totals.outcomes[o] > 0);
}
