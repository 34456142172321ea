import { fileURLToPath, pathToFileURL } from 'node:url';
import { compareSchemas } from '../src/compat/index.ts';
import type { Json, JsonObject } from './json.ts';
import type { Rng } from './prng.ts';
import { justifiedRefusal } from './refused.ts';
import { findCounterexample, orient, separates, type Counterexample, type Direction } from './values.ts';

/** How one gate answer compares with the oracle. */
export type Outcome =
  | 'ok'
  | 'permissive'
  | 'false-alarm'
  | 'invalid-compatible'
  | 'unknown'
  /** Unknown because the gate refuses the input (invalid, looping, too deep), as the fuzzer confirms. */
  | 'refused'
  | 'crash'
  /** The fuzzer itself failed on this case (its own defect, not the gate's); reason says how. */
  | 'fuzzer-error';

/** One comparison to judge: a pair, a direction and a policy. */
export interface Case {
  old: JsonObject;
  new: JsonObject;
  direction: Direction;
  strict: boolean;
}

/** A gate finding as the judge reads it. */
export interface GateFinding {
  rule: string;
  verdict: string;
  pointer: string;
  witness?: Json;
  reason?: string;
}

/** The gate's answer to a case, or what it threw. */
export type GateAnswer =
  | { ok: true; verdict: string; findings: GateFinding[]; ms: number }
  | { ok: false; message: string; stack: string; ms: number };

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A stack line with paths relative to the repository, so reports read the same anywhere. */
function relative(line: string): string {
  return line.trim().split(pathToFileURL(ROOT).href).join('').split(ROOT).join('');
}

/** Runs the gate on a case; a throw is caught and returned, never propagated. */
export function askGate(c: Case): GateAnswer {
  const start = performance.now();
  try {
    const r = compareSchemas(c.old, c.new, c.direction, { strictOpenObjects: c.strict });
    // The gate answers unknown when its own code throws (a tool is never lost to one error);
    // to the fuzzer that is still a crash, a defect to find, not an answer.
    const internal = r.findings.find((f) => String(f.args?.error ?? '').startsWith('an internal error ('));
    if (internal)
      return {
        ok: false,
        message: `caught by the gate: ${String(internal.args?.error)}`,
        stack: '',
        ms: performance.now() - start,
      };
    return {
      ok: true,
      verdict: r.verdict,
      findings: r.findings as GateFinding[],
      ms: performance.now() - start,
    };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const stack = (err.stack ?? '').split('\n').find((l) => l.trim().startsWith('at ')) ?? '';
    return {
      ok: false,
      message: `${err.name}: ${err.message}`,
      stack: relative(stack),
      ms: performance.now() - start,
    };
  }
}

/** The verdict of a case and the evidence for it. */
export interface Judgement {
  outcome: Outcome;
  ms: number;
  verdict?: string;
  /** For permissive: a value the source side accepts and the target side rejects. */
  counterexample?: Counterexample;
  /** For a false alarm: the breaking finding whose witness the oracle did not confirm. */
  finding?: GateFinding;
  /** Why the finding is not confirmed. */
  reason?: string;
  /** For a crash: the message and the first stack line. */
  crash?: { message: string; stack: string };
  /** For unknown: why, one key per distinct reason (see unknownReasons). */
  reasons?: string[];
}

/** How the gate says it could not confirm a break, by the start of its reason. */
const WITNESS_REASONS: [string, string][] = [
  ['the witness built', 'witness not confirmed'],
  ['no witness could be built', 'no witness built'],
  ['not verified', 'witness work used up'],
  ['the validator does not confirm', 'witness not confirmed as written'],
  ['breaking only when read as', 'breaking in one reading'],
];

/**
 * Why an answer is unknown, one key per distinct reason: the rule of each unknown finding, and
 * for a break the gate could not confirm, how it could not (`type-narrowed: witness not
 * confirmed`), so a run can be read by what keeps it from deciding.
 */
export function unknownReasons(findings: readonly GateFinding[]): string[] {
  const keys = new Set<string>();
  for (const f of findings) {
    if (f.verdict !== 'unknown') continue;
    const how = WITNESS_REASONS.find(([start]) => f.reason?.startsWith(start) === true)?.[1];
    keys.add(how === undefined ? f.rule : `${f.rule}: ${how}`);
  }
  return [...keys].sort();
}

/** The first breaking finding the oracle does not confirm, with why. */
export function unconfirmed(
  c: Case,
  findings: GateFinding[],
): { finding: GateFinding; reason: string } | undefined {
  const o = orient(c.old, c.new, c.direction);
  for (const f of findings) {
    if (f.verdict !== 'breaking') continue;
    if (f.witness === undefined) return { finding: f, reason: 'no witness' };
    if (o.readings.length === 0) return { finding: f, reason: 'the oracle cannot compile a side' };
    if (!separates(o, f.witness)) {
      const sourceSide = c.direction === 'input' ? 'old' : 'new';
      return { finding: f, reason: `the ${sourceSide} side rejects the witness or the other accepts it` };
    }
  }
  return undefined;
}

/**
 * Judges the gate on one case against the oracle: permissive (identical or compatible, yet the
 * oracle has a counterexample the policy counts), false alarm (a breaking finding without a
 * witness the oracle confirms), invalid-compatible (compatible although the oracle cannot
 * compile both sides under any reading), refused (unknown because the input is invalid,
 * loops or is too deep, as the fuzzer confirms by its own means), unknown, crash, or ok.
 */
export function judge(c: Case, rng: Rng): Judgement {
  const answer = askGate(c);
  if (!answer.ok)
    return { outcome: 'crash', ms: answer.ms, crash: { message: answer.message, stack: answer.stack } };
  const base = { ms: answer.ms, verdict: answer.verdict };
  if (answer.verdict === 'unknown') {
    const reasons = unknownReasons(answer.findings);
    const refused = justifiedRefusal(reasons, c.old, c.new, c.direction);
    return { outcome: refused ? 'refused' : 'unknown', ...base, reasons };
  }
  if (answer.verdict === 'breaking') {
    const bad = unconfirmed(c, answer.findings);
    return bad ? { outcome: 'false-alarm', ...base, ...bad } : { outcome: 'ok', ...base };
  }
  const o = orient(c.old, c.new, c.direction);
  if (o.readings.length === 0) return { outcome: 'invalid-compatible', ...base };
  const counterexample = findCounterexample(o, c.strict, rng);
  return counterexample ? { outcome: 'permissive', ...base, counterexample } : { outcome: 'ok', ...base };
}
