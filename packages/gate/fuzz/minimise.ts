import type { Case, Judgement } from './judge.ts';
import { askGate, unconfirmed } from './judge.ts';
import { canonical, type Json, type JsonObject } from './json.ts';
import { budget, shrinkPair, shrinkValue } from './shrink.ts';
import { counts, orient, separates } from './values.ts';

/** A wrong answer cut down to what still shows it. */
export interface Minimised {
  old: JsonObject;
  new: JsonObject;
  /** The counterexample (permissive) or the gate's unconfirmed witness (false alarm). */
  value?: Json;
  /** The rule of the unconfirmed finding (false alarm). */
  rule?: string;
  /** The gate's verdict on the minimised pair, or the crash message. */
  answer: string;
}

const COMPATIBLE = new Set(['identical', 'compatible']);

/** Whether a value separates a pair (as the case reads it) and counts under its policy. */
function separating(c: Case, o: JsonObject, n: JsonObject, value: Json): boolean {
  const oriented = orient(o, n, c.direction);
  const reading = separates(oriented, value);
  return reading !== undefined && counts(oriented, value, c.strict, reading);
}

/** The predicate "the gate still gives this wrong answer" for a judged case. */
function stillWrong(
  c: Case,
  j: Judgement,
  value: () => Json | undefined,
): (o: JsonObject, n: JsonObject) => boolean {
  const at = (o: JsonObject, n: JsonObject): Case => ({ ...c, old: o, new: n });
  switch (j.outcome) {
    case 'crash':
      return (o, n) => {
        const a = askGate(at(o, n));
        return !a.ok && a.message === j.crash?.message;
      };
    case 'false-alarm':
      return (o, n) => {
        const a = askGate(at(o, n));
        return (
          a.ok &&
          a.verdict === 'breaking' &&
          unconfirmed(at(o, n), a.findings)?.finding.rule === j.finding?.rule
        );
      };
    case 'invalid-compatible':
      return (o, n) => {
        const a = askGate(at(o, n));
        return a.ok && COMPATIBLE.has(a.verdict) && orient(o, n, c.direction).readings.length === 0;
      };
    default:
      return (o, n) => {
        const v = value();
        if (v === undefined || !separating(c, o, n, v)) return false;
        const a = askGate(at(o, n));
        return a.ok && COMPATIBLE.has(a.verdict);
      };
  }
}

/**
 * Minimises a wrong answer: the counterexample value first (while it separates old and new),
 * then the schema pair (while the gate's wrong answer persists), then the value again. Bounded
 * in gate calls and time, so a run always ends.
 */
export function minimise(c: Case, j: Judgement, ms = 8000): Minimised {
  const b = budget(800, ms);
  let value: Json | undefined = j.counterexample?.value;
  let pair = { old: c.old, new: c.new };
  for (let round = 0; round < 3; round++) {
    const before = canonical([pair.old, pair.new, value ?? null]);
    if (value !== undefined) {
      const { old: o, new: n } = pair;
      value = shrinkValue(value, (v) => separating(c, o, n, v), b);
    }
    pair = shrinkPair(
      pair,
      stillWrong(c, j, () => value),
      b,
    );
    if (canonical([pair.old, pair.new, value ?? null]) === before) break;
  }
  const final = askGate({ ...c, old: pair.old, new: pair.new });
  const out: Minimised = { old: pair.old, new: pair.new, answer: final.ok ? final.verdict : final.message };
  if (j.outcome === 'false-alarm' && final.ok) {
    const bad = unconfirmed({ ...c, old: pair.old, new: pair.new }, final.findings);
    if (bad) {
      out.rule = bad.finding.rule;
      if (bad.finding.witness !== undefined) out.value = bad.finding.witness;
    }
  } else if (value !== undefined) out.value = value;
  return out;
}
