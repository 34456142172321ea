import RandExpModule from 'randexp';
import { formatInstances } from './formats.ts';
import type { Hints } from './hints.ts';
import { isObject, type JsonObject } from './json.ts';
import type { Rng } from './prng.ts';

type RandExpClass = typeof RandExpModule.default;
// randexp ships as CommonJS; its default export arrives either wrapped or bare.
const RandExp = ((RandExpModule as unknown as { default?: RandExpClass }).default ??
  RandExpModule) as RandExpClass;

const generators = new Map<string, InstanceType<RandExpClass> | null>();

/**
 * Strings matching a regex (as Ajv reads it, with the `u` flag), drawn with the run's generator;
 * the empty list for a regex randexp cannot read.
 */
export function patternInstances(pattern: string, rng: Rng, count: number): string[] {
  let gen = generators.get(pattern);
  if (gen === undefined) {
    try {
      gen = new RandExp(new RegExp(pattern, 'u'));
      gen.max = 4;
    } catch {
      gen = null;
    }
    if (generators.size > 5000) generators.clear();
    generators.set(pattern, gen);
  }
  if (!gen) return [];
  gen.randInt = (a: number, b: number) => a + rng.int(b - a + 1);
  const out: string[] = [];
  for (let i = 0; i < count * 3 && out.length < count; i++) {
    try {
      const s = gen.gen();
      if (!out.includes(s)) out.push(s);
    } catch {
      break;
    }
  }
  return out;
}

const PLAIN = [
  '',
  'a',
  'ab',
  'abc',
  'A',
  'a b',
  '0',
  '123',
  '-',
  'x-a',
  'S_1',
  'me',
  ' ',
  'é',
  'abcdefghij',
  '😀',
  'a😀',
  '😀😀😀',
];

/** A string of exactly n characters (code points, as JSON Schema counts them) built from a sample. */
function ofLength(sample: string, n: number): string {
  const chars = Array.from(sample.length > 0 ? sample : 'a');
  return Array.from({ length: n }, (_, i) => chars[i % chars.length] as string).join('');
}

/**
 * Candidate strings for a string schema: its pattern and format instances, the pair's regexes,
 * formats and enum strings, strings at every length bound (± 1), plain strings. At most `max`.
 */
export function stringCandidates(node: JsonObject, hints: Hints, rng: Rng, max: number): string[] {
  const own: string[] = [];
  if (typeof node.pattern === 'string') own.push(...patternInstances(node.pattern, rng, 4));
  if (typeof node.format === 'string') own.push(...formatInstances(node.format));
  const lengths = [
    ...[node.minLength, node.maxLength].filter((v): v is number => typeof v === 'number'),
    ...hints.lengths,
  ].filter((n) => n <= 300);
  const sized = lengths.flatMap((n) => [n, n - 1, n + 1]).filter((n) => n >= 0);
  // Astral characters count once in JSON Schema and twice in a JavaScript string's length.
  const samples = own.length > 0 ? own.slice(0, 2) : ['a', '😀'];
  const groups: string[][] = [
    own,
    sized.flatMap((n) => samples.map((s) => ofLength(s, n))),
    hints.patterns.flatMap((p) => patternInstances(p, rng, 2)),
    hints.formats.flatMap(formatInstances),
    [...hints.values.filter((v): v is string => typeof v === 'string'), ...hints.names],
    PLAIN,
  ];
  const out: string[] = [];
  const queues = groups.map((g) => [...g]);
  while (out.length < max && queues.some((q) => q.length > 0))
    for (const q of queues) {
      const x = q.shift();
      if (x !== undefined && out.length < max && !out.includes(x)) out.push(x);
    }
  return out;
}

/** Property names to try as keys: instances of a regex, or names drawn from a name schema. */
export function keyCandidates(nameSchema: unknown, rng: Rng, count: number): string[] {
  if (!isObject(nameSchema)) return [];
  if (Array.isArray(nameSchema.enum))
    return nameSchema.enum.filter((v): v is string => typeof v === 'string');
  if (typeof nameSchema.pattern === 'string') return patternInstances(nameSchema.pattern, rng, count);
  return [];
}
