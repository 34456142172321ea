import { undeclaredKey } from './declared.ts';
import { generateValues } from './generate.ts';
import { collectHints } from './hints.ts';
import type { Json } from './json.ts';
import { compile, compileAt, readings, type Dialect } from './oracle.ts';
import type { Rng } from './prng.ts';

/** `input`: values valid under old must stay valid; `output`: values valid under new must have been valid. */
export type Direction = 'input' | 'output';

/** One reading of a pair, with both sides compiled. */
interface CompiledReading {
  source: Dialect;
  target: Dialect;
  acceptsSource: (value: Json) => boolean | undefined;
  acceptsTarget: (value: Json) => boolean | undefined;
}

/**
 * A pair read in one direction: the source is the side whose values must stay valid (old for
 * input, new for output), the target the side that must accept them.
 */
export interface Oriented {
  source: Json;
  target: Json;
  /** Readings under which both sides compile. */
  readings: CompiledReading[];
  /** Whether some reading could not compile a side. */
  uncompiled: boolean;
}

/** The pair as source and target for a direction, with the readings the oracle can compile. */
export function orient(oldSchema: Json, newSchema: Json, direction: Direction): Oriented {
  const [source, target] = direction === 'input' ? [oldSchema, newSchema] : [newSchema, oldSchema];
  const all = readings(oldSchema, newSchema).map((r) =>
    direction === 'input' ? { source: r.old, target: r.new } : { source: r.new, target: r.old },
  );
  const ok: CompiledReading[] = [];
  for (const r of all) {
    const s = compile(source, r.source);
    const t = compile(target, r.target);
    if (s.ok && t.ok) ok.push({ ...r, acceptsSource: s.validate, acceptsTarget: t.validate });
  }
  return { source, target, readings: ok, uncompiled: ok.length < all.length || all.length === 0 };
}

/** A value the source accepts and the target rejects, and the reading under which it does. */
export interface Counterexample {
  value: Json;
  reading: { source: Dialect; target: Dialect };
}

/** The first reading under which a value separates the sides, or undefined. */
export function separates(o: Oriented, value: Json): Counterexample['reading'] | undefined {
  for (const r of o.readings)
    if (r.acceptsSource(value) === true && r.acceptsTarget(value) === false)
      return { source: r.source, target: r.target };
  return undefined;
}

/**
 * Whether a counterexample counts under a policy: strict counts all, the default only values
 * whose keys the source side declares (read in the reading's source dialect).
 */
export function counts(
  o: Oriented,
  value: Json,
  strict: boolean,
  reading: Counterexample['reading'],
): boolean {
  if (strict) return true;
  const accepts = (pointer: string, v: Json): boolean | undefined => {
    const c = compileAt(o.source, reading.source, pointer);
    return c.ok ? c.validate(v) : undefined;
  };
  return undeclaredKey(o.source, value, accepts, reading.source) === undefined;
}

/**
 * Searches for a counterexample with the fuzzer's own generator and the oracle alone: up to
 * `max` candidates built from the source side (aimed by both sides' constants), kept when the
 * source accepts them, reported when the target rejects them and the policy counts them.
 */
export function findCounterexample(
  o: Oriented,
  strict: boolean,
  rng: Rng,
  max = 300,
): Counterexample | undefined {
  if (o.readings.length === 0) return undefined;
  const candidates = generateValues(o.source, collectHints(o.source, o.target), rng, max);
  for (const value of candidates) {
    const reading = separates(o, value);
    if (reading && counts(o, value, strict, reading)) return { value, reading };
  }
  return undefined;
}
