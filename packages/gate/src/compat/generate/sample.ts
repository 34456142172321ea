import type { Json, Schema } from '../types.ts';
import { FIRST, seeded } from './chooser.ts';
import { generate } from './value.ts';

/**
 * Values drawn from a schema: the minimal one and a few variants first, then random ones.
 * Not all are valid (the caller filters with the validator); with `extras`, open objects get
 * undeclared properties too (strict set semantics).
 */
export function sampleValues(
  root: Schema,
  dialect: string,
  count: number,
  seed: number,
  extras: boolean,
): Json[] {
  const out: Json[] = [];
  for (let salt = 0; salt < 3; salt++) {
    const v = generate(root, { root, dialect, choose: FIRST, extras: false }, salt);
    if (v !== undefined) out.push(v);
  }
  const env = { root, dialect, choose: seeded(seed), extras };
  for (let i = 0; out.length < count && i < count * 3; i++) {
    const v = generate(root, env, 0);
    if (v !== undefined) out.push(v);
  }
  return out;
}
