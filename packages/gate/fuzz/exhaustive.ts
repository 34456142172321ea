import { askGate, unknownReasons, type Case } from './judge.ts';
import { canonical, clone, isObject, type Json, type JsonObject } from './json.ts';
import { compile } from './oracle.ts';
import { Rng, mixSeed } from './prng.ts';

/**
 * The fuzzer's second oracle. The differential fuzzer edits real schemas and searches values; here
 * small schemas are built from nested combinators (allOf, anyOf, oneOf, not, if/then/else, a
 * `$ref` with keywords beside it, several of one keyword in one node) over the keywords of one
 * domain, one part is edited, and the pair is judged against every value of a finite domain
 * (every string of up to five letters, every object over three keys with four values, ...). A
 * `compatible` is wrong if any of them is valid before and rejected after, whatever a sampler
 * would have drawn; a witness is wrong if Ajv does not see it break. Each pair is judged both
 * ways, as input and as output, under strict set semantics (no open-objects policy), declared
 * 2020-12 so that one reading decides.
 */

export const DOMAINS = ['strings', 'objects', 'mixed'] as const;
export type Domain = (typeof DOMAINS)[number];

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const WORDS = ['', 'a', 'b', 'ab', 'ba', 'aa', 'abc', 'kil', 'zz', 'abab'];
const KEYS = ['a', 'b', 'c'];
const VALUES: Json[] = ['', 'a', 'kil', 1];

type Make = (rng: Rng) => Json;

/** A keyword or two about strings. */
const STRING_ATOMS: Make[] = [
  (r) => ({ maxLength: r.int(5) }),
  (r) => ({ minLength: r.int(4) }),
  (r) => ({ not: { const: r.pick(WORDS) } }),
  (r) => ({ pattern: r.pick(['^a', 'b$', 'a', '^[ab]*$', '^.{0,3}$']) }),
  (r) => ({ enum: [...new Set([r.pick(WORDS), r.pick(WORDS), r.pick(WORDS)])] }),
  (r) => ({ const: r.pick(WORDS) }),
  (r) => ({ not: { maxLength: r.int(3) } }),
  () => ({ type: 'string' }),
];

/** A schema for a property's value. */
const VALUE_ATOMS: Make[] = [
  () => ({ type: 'string' }),
  (r) => ({ maxLength: r.int(3) }),
  (r) => ({ const: r.pick(VALUES) }),
  (r) => ({ not: { const: r.pick(VALUES) } }),
  () => ({ type: 'integer' }),
  () => ({}),
];
const value = (r: Rng): Json => r.pick(VALUE_ATOMS)(r);

/** A keyword or two about objects. */
const OBJECT_ATOMS: Make[] = [
  (r) => ({ required: [r.pick(KEYS)] }),
  (r) => ({ properties: { [r.pick(KEYS)]: value(r) } }),
  (r) => ({
    properties: { [r.pick(KEYS)]: value(r), [r.pick(KEYS)]: value(r) },
    additionalProperties: false,
  }),
  () => ({ additionalProperties: false }),
  (r) => ({ additionalProperties: value(r) }),
  (r) => ({ maxProperties: r.int(3) }),
  (r) => ({ minProperties: r.int(3) }),
  (r) => ({ propertyNames: { pattern: r.pick(['^[ab]$', '^a', 'c']) } }),
  (r) => ({ patternProperties: { [r.pick(['^a', 'b', '^[bc]$'])]: value(r) } }),
  (r) => ({ dependentRequired: { [r.pick(KEYS)]: [r.pick(KEYS)] } }),
  (r) => ({ not: { required: [r.pick(KEYS)] } }),
  () => ({ type: 'object' }),
];

/** A keyword about any type: arrays, numbers and types mixed with the rest. */
const MIXED_ATOMS: Make[] = [
  (r) => ({ required: [r.pick(KEYS.slice(0, 2))] }),
  (r) => ({ properties: { [r.pick(KEYS.slice(0, 2))]: value(r) } }),
  (r) => ({ items: value(r) }),
  (r) => ({ prefixItems: [value(r)] }),
  (r) => ({ prefixItems: [value(r), value(r)], items: false }),
  (r) => ({ contains: value(r) }),
  (r) => ({ contains: value(r), minContains: r.int(3) }),
  (r) => ({ contains: value(r), maxContains: r.int(2) }),
  (r) => ({ minItems: r.int(3) }),
  (r) => ({ maxItems: r.int(3) }),
  () => ({ uniqueItems: true }),
  (r) => ({ minimum: r.int(3) - 1 }),
  (r) => ({ exclusiveMaximum: r.int(3) - 1 }),
  (r) => ({ multipleOf: r.pick([0.5, 1, 2]) }),
  (r) => ({ type: r.pick(['integer', 'number', 'string', 'array', 'object', 'null']) }),
  (r) => ({ type: [r.pick(['integer', 'string']), r.pick(['array', 'null'])] }),
  (r) => ({
    enum: [...new Set([canonical(r.pick(VALUES)), canonical(r.pick(VALUES))])].map(
      (t) => JSON.parse(t) as Json,
    ),
  }),
  (r) => ({ not: value(r) }),
  (r) => ({ maxLength: r.int(2) }),
];

const ATOMS: Record<Domain, Make[]> = { strings: STRING_ATOMS, objects: OBJECT_ATOMS, mixed: MIXED_ATOMS };
const ROOT_TYPE: Record<Domain, Json | undefined> = {
  strings: 'string',
  objects: 'object',
  mixed: undefined,
};

/** Every value the pairs of a domain are judged on. */
function domainValues(domain: Domain): Json[] {
  const out: Json[] = [];
  if (domain === 'strings') {
    const grow = (s: string): void => {
      out.push(s);
      if (s.length < 5) for (const c of 'abc') grow(s + c);
    };
    grow('');
    for (const w of WORDS) if (!out.includes(w)) out.push(w);
    return out;
  }
  const keys = domain === 'objects' ? KEYS : KEYS.slice(0, 2);
  const grow = (i: number, o: JsonObject): void => {
    if (i === keys.length) {
      out.push({ ...o });
      return;
    }
    grow(i + 1, o);
    for (const v of VALUES) grow(i + 1, { ...o, [keys[i] as string]: v });
  };
  grow(0, {});
  if (domain === 'objects') return out;
  const elements: Json[] = [0, 1, 'a', 1.5];
  let layer: Json[][] = [[]];
  for (let n = 0; n <= 3; n++) {
    for (const a of layer) out.push(a);
    layer = layer.flatMap((a) => elements.map((e) => [...a, e]));
  }
  out.push(-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, 4, null, true, '', 'a', 'ab', 'kil');
  return out;
}

/** A schema of nested combinators over a domain's atoms; definitions it names go in `defs`. */
function build(rng: Rng, domain: Domain, depth: number, defs: JsonObject): Json {
  const atom = (): JsonObject => rng.pick(ATOMS[domain])(rng) as JsonObject;
  if (depth <= 0 || rng.chance(0.3)) return atom();
  const kids = (): Json[] =>
    Array.from({ length: 1 + rng.int(3) }, () => build(rng, domain, depth - 1, defs));
  const beside = (node: JsonObject, p: number): JsonObject => (rng.chance(p) ? { ...node, ...atom() } : node);
  switch (rng.int(9)) {
    case 0:
    case 1:
    case 2:
      return beside({ allOf: kids() }, 0.5);
    case 3:
      return beside({ anyOf: kids() }, 0.3);
    case 4: {
      const name = `D${Object.keys(defs).length}`;
      defs[name] = true;
      defs[name] = build(rng, domain, depth - 1, defs);
      return beside({ $ref: `#/$defs/${name}` }, 0.5);
    }
    case 5:
      return { not: build(rng, domain, depth - 1, defs) };
    case 6:
      return beside(
        { oneOf: [build(rng, domain, depth - 1, defs), build(rng, domain, depth - 1, defs)] },
        0.3,
      );
    case 7: {
      const node: JsonObject = { if: atom(), then: build(rng, domain, depth - 1, defs) };
      if (rng.chance(0.5)) node.else = build(rng, domain, depth - 1, defs);
      return node;
    }
    default:
      return { ...atom(), ...atom() };
  }
}

/** A schema of the domain, declared 2020-12. */
function schema(rng: Rng, domain: Domain): JsonObject {
  const defs: JsonObject = {};
  const body = build(rng, domain, 4, defs) as JsonObject;
  const type = ROOT_TYPE[domain];
  return {
    $schema: DIALECT,
    ...(type === undefined ? {} : { type }),
    ...body,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

/** The same schema with one part edited: replaced by an atom, joined by one in an allOf, or given one beside it. */
function edited(rng: Rng, domain: Domain, base: JsonObject): JsonObject | undefined {
  const next = clone(base);
  const spots: [JsonObject | Json[], string | number][] = [];
  const walk = (v: Json): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (x !== null && typeof x === 'object') {
          spots.push([v, i]);
          walk(x);
        }
      });
    } else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (
          x === null ||
          typeof x !== 'object' ||
          ['enum', 'const', 'required', 'dependentRequired'].includes(k)
        )
          continue;
        // A schema's place (not the list of an allOf, nor a map of them).
        if (!Array.isArray(x) && !['$defs', 'properties', 'patternProperties'].includes(k))
          spots.push([v, k]);
        walk(x);
      }
    }
  };
  walk(next);
  if (spots.length === 0) return undefined;
  const [parent, key] = rng.pick(spots);
  const atom = rng.pick(ATOMS[domain])(rng) as JsonObject;
  const holder = parent as Record<string | number, Json>;
  const current = holder[key] as Json;
  const r = rng.int(3);
  holder[key] =
    r === 0 ? atom : r === 1 ? { allOf: [current, atom] } : { ...(current as JsonObject), ...atom };
  return canonical(next) === canonical(base) ? undefined : next;
}

/** A wrong answer, with the pair and the value that shows it. */
interface ExhaustiveFailure {
  domain: Domain;
  kind: 'permissive' | 'false alarm' | 'crash';
  direction: Case['direction'];
  old: JsonObject;
  new: JsonObject;
  value?: Json;
  detail?: string;
}

export interface ExhaustiveTally {
  pairs: number;
  judged: number;
  /** Pairs the oracle cannot compile (an `enum` left with one value twice, say): not judged. */
  skipped: number;
  compatible: number;
  breaking: number;
  unknown: number;
  /** Unknown comparisons by reason (see unknownReasons); one comparison may count under several. */
  reasons: Record<string, number>;
  permissive: number;
  falseAlarm: number;
  crash: number;
  values: number;
  failures: ExhaustiveFailure[];
}

/** Judges `pairs` pairs of one domain from a seed; each wrong answer is kept (the first `keep` in full). */
export function runExhaustive(domain: Domain, pairs: number, seed: number, keep = 3): ExhaustiveTally {
  const rng = new Rng(mixSeed(seed, DOMAINS.indexOf(domain) + 1));
  const values = domainValues(domain);
  const t: ExhaustiveTally = {
    pairs: 0,
    judged: 0,
    skipped: 0,
    compatible: 0,
    breaking: 0,
    unknown: 0,
    reasons: {},
    permissive: 0,
    falseAlarm: 0,
    crash: 0,
    values: values.length,
    failures: [],
  };
  const fail = (f: ExhaustiveFailure): void => {
    if (t.failures.length < keep) t.failures.push(f);
  };
  while (t.pairs < pairs) {
    const old = schema(rng, domain);
    const next = edited(rng, domain, old);
    if (!next) continue;
    t.pairs++;
    const [a, b] = [compile(old, '2020-12'), compile(next, '2020-12')];
    if (!a.ok || !b.ok) {
      t.skipped++;
      continue;
    }
    for (const direction of ['input', 'output'] as const) {
      // The side whose values must stay valid, and the other.
      const [kept, other] = direction === 'input' ? [a.validate, b.validate] : [b.validate, a.validate];
      const breaks = (v: Json): boolean | undefined => {
        const [k, o] = [kept(v), other(v)];
        return k === undefined || o === undefined ? undefined : k && !o;
      };
      const answer = askGate({ old, new: next, direction, strict: true });
      t.judged++;
      if (!answer.ok) {
        t.crash++;
        fail({ domain, kind: 'crash', direction, old, new: next, detail: answer.message });
        continue;
      }
      if (answer.verdict === 'compatible' || answer.verdict === 'identical') {
        t.compatible++;
        const counter = values.find((v) => breaks(v) === true);
        if (counter !== undefined) {
          t.permissive++;
          fail({ domain, kind: 'permissive', direction, old, new: next, value: counter });
        }
      } else if (answer.verdict === 'breaking') t.breaking++;
      else {
        t.unknown++;
        for (const r of unknownReasons(answer.findings)) t.reasons[r] = (t.reasons[r] ?? 0) + 1;
      }
      for (const f of answer.findings)
        if (f.verdict === 'breaking' && f.witness !== undefined && breaks(f.witness) === false) {
          t.falseAlarm++;
          fail({ domain, kind: 'false alarm', direction, old, new: next, value: f.witness, detail: f.rule });
        }
    }
  }
  return t;
}

/** Where the gate gives up: the leading reasons for unknown, per domain (the shapes are made hard). */
function reasonRows(tallies: Map<Domain, ExhaustiveTally>, top = 8): string {
  const all = new Map<string, number>();
  for (const t of tallies.values())
    for (const [r, n] of Object.entries(t.reasons)) all.set(r, (all.get(r) ?? 0) + n);
  const leading = [...all].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top);
  if (leading.length === 0) return '';
  const domains = [...tallies.keys()];
  return [
    `| unknown because | ${domains.join(' | ')} | all |`,
    `|---|${domains.map(() => '---:|').join('')}---:|`,
    ...leading.map(
      ([r, n]) => `| \`${r}\` | ${domains.map((d) => tallies.get(d)?.reasons[r] ?? 0).join(' | ')} | ${n} |`,
    ),
    '',
    `The ${leading.length} leading reasons; an unknown comparison with several reasons counts under each.`,
  ].join('\n');
}

/** The tallies as a table, the leading reasons for unknown, then the wrong answers kept. */
export function exhaustiveReport(seed: number, tallies: Map<Domain, ExhaustiveTally>): string {
  const rows = [...tallies].map(
    ([d, t]) =>
      `| ${d} | ${t.values} | ${t.pairs} | ${t.judged} | ${t.skipped} | ${t.permissive} | ${t.falseAlarm} | ${t.crash} | ${t.compatible} | ${t.breaking} | ${t.unknown} (${((100 * t.unknown) / Math.max(1, t.judged)).toFixed(1)}%) |`,
  );
  const wrong = [...tallies.values()].flatMap((t) => t.failures);
  return [
    `## Exhaustive check: nested combinators against every value of small domains, seed ${seed}`,
    '',
    '| domain | values | pairs | judged | skipped | permissive | false alarm | crash | compatible | breaking | unknown |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    reasonRows(tallies),
    '',
    wrong.length === 0
      ? 'No wrong answer.'
      : wrong
          .map(
            (f) =>
              `- ${f.kind} (${f.domain}, ${f.direction})${f.detail ? ` ${f.detail}` : ''}: old \`${canonical(f.old)}\`, new \`${canonical(f.new)}\`${f.value !== undefined ? `, value \`${canonical(f.value)}\`` : ''}`,
          )
          .join('\n'),
  ].join('\n');
}
