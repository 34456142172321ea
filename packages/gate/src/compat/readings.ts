import { as2020, dialectSensitive, DIALECT_URI, originalPointer, type Renames } from './dialects.ts';
import { sameJson } from './hash.ts';
import { findPlace, nearestPointer } from './pointer.ts';
import { ruleVerdict } from './rules.ts';
import type { CompareOptions, Direction, Finding, Json, Schema, SchemaComparison } from './types.ts';
import { breakChecker, dialectOf, schemaProblem, type Dialect } from './validator.ts';
import { combineVerdict } from './verdicts.ts';

type Single = (
  oldSchema: Schema,
  newSchema: Schema,
  direction: Direction,
  options: CompareOptions,
) => SchemaComparison;

interface Reading {
  /** Where renamed keywords of the new side's rewrite stand in the new schema as written. */
  renames: Renames;
  /** The two schemas as given, before the rewrite. */
  given: { old: Schema; new: Schema };
  /** The dialects the two sides were read in, when they differ (both were rewritten as 2020-12). */
  changed?: { old: Dialect; new: Dialect };
  /** The dialect a schema without `$schema` is read in, in this reading. */
  undeclared: Dialect;
  old: Schema;
  new: Schema;
}

function declared(schema: Schema): boolean {
  return typeof schema === 'object' && schema.$schema !== undefined;
}

/**
 * The readings a pair must hold in. A schema without `$schema` is 2020-12 for MCP since
 * 2025-11-25, but earlier revisions left the dialect to implementations, many read draft-07,
 * and so does Ajv's default: when such a schema uses a keyword whose meaning differs, the pair
 * is read both ways. Within a reading both sides are compared as 2020-12 rewrites of what their
 * dialect means (see as2020), so a `$schema` change is judged by what it changes, and a change
 * to a keyword the dialect ignores changes nothing.
 */
function readingsOf(oldSchema: Schema, newSchema: Schema): Reading[] | undefined {
  const sensitive = dialectSensitive(oldSchema) || dialectSensitive(newSchema);
  if (!sensitive) return undefined;
  const undeclared: Dialect[] =
    declared(oldSchema) && declared(newSchema) ? ['2020-12'] : ['2020-12', 'draft-07'];
  const out: Reading[] = [];
  for (const reading of undeclared) {
    const dOld = declared(oldSchema) ? dialectOf(oldSchema) : reading;
    const dNew = declared(newSchema) ? dialectOf(newSchema) : reading;
    if (!dOld || !dNew) return undefined; // an unsupported dialect: the comparison says so
    // Rewritten even in one dialect: a keyword that dialect ignores then changes nothing.
    const renames: Renames = [];
    out.push({
      undeclared: reading,
      renames,
      given: { old: oldSchema, new: newSchema },
      ...(dOld === dNew ? {} : { changed: { old: dOld, new: dNew } }),
      old: as2020(oldSchema, dOld),
      new: as2020(newSchema, dNew, renames),
    });
  }
  return out;
}

/** A reading whose sides were rewritten from two dialects still reports the change of dialect. */
function withDialectChange(
  result: SchemaComparison,
  reading: Reading,
  direction: Direction,
  options: CompareOptions,
): SchemaComparison {
  if (!reading.changed) {
    if (result.verdict !== 'identical' || sameJson(reading.given.old, reading.given.new)) return result;
    // The texts differ only where the dialect reads nothing.
    const ignored: Finding = {
      rule: 'ignored-keyword-changed',
      verdict: ruleVerdict('ignored-keyword-changed', direction, options.strictOpenObjects === true),
      pointer: '',
      args: {},
    };
    return { verdict: 'compatible', findings: [ignored] };
  }
  const change: Finding = {
    rule: 'dialect-changed',
    verdict: ruleVerdict('dialect-changed', direction, options.strictOpenObjects === true),
    pointer: '/$schema',
    args: { old: DIALECT_URI[reading.changed.old], new: DIALECT_URI[reading.changed.new] },
  };
  const findings = [change, ...result.findings.filter((f) => f.rule !== 'dialect-changed')];
  return { verdict: result.verdict === 'identical' ? 'compatible' : result.verdict, findings };
}

/** A schema as written, in the dialect this reading gives it. */
function asWritten(schema: Schema, reading: Reading): Schema {
  if (typeof schema !== 'object' || schema.$schema !== undefined) return schema;
  return { ...schema, $schema: DIALECT_URI[reading.undeclared] };
}

/**
 * Witnesses were built and checked on the rewrites; the validator must also confirm them on the
 * schemas as written, where its own quirks apply (a draft-07 tuple beside `contains` lets an
 * empty array through). A break it does not confirm there is reported as unknown.
 */
function confirmAsWritten(
  result: SchemaComparison,
  reading: Reading,
  direction: Direction,
): SchemaComparison {
  if (!result.findings.some((f) => f.verdict === 'breaking')) return result;
  const old = asWritten(reading.given.old, reading),
    neu = asWritten(reading.given.new, reading);
  const [kept, other] = direction === 'input' ? [old, neu] : [neu, old];
  const proves = breakChecker(kept, other);
  const findings = result.findings.map((f) => {
    if (f.verdict !== 'breaking') return f;
    if (f.witness !== undefined && proves(f.witness)) return f;
    return {
      ...f,
      verdict: 'unknown' as const,
      reason: 'the validator does not confirm the witness on the schemas as written',
    };
  });
  return { verdict: combineVerdict(findings), findings };
}

const RANK = { identical: 0, compatible: 1, unknown: 2, breaking: 3 } as const;

/**
 * Where a schema puts a tuple beside `contains`, as a JSON Pointer, or undefined: `items` as an
 * array when read in draft-07 or 2019-09, `prefixItems` when read in 2020-12. Found over every object
 * (findPlace).
 */
function tupleBesideContains(schema: Schema, dialect: Dialect): string | undefined {
  const tuple = dialect === '2020-12' ? 'prefixItems' : 'items';
  return findPlace(schema as Json, (node, at) =>
    Array.isArray(node[tuple]) && 'contains' in node ? at : undefined,
  );
}

/**
 * A compatible reading holds for a validator that collects every error, as the gate's does.
 * Ajv in its default configuration (first error only) differs in one place seen so far: a
 * tuple beside `contains` (a draft-07 or 2019-09 `items` array, a 2020-12 `prefixItems`) lets
 * some empty arrays through (validator.ts). Where the side the values come from has one, what
 * that configuration accepts is not what the walk read, so a compatible reading is unknown
 * (`contains-beside-tuple`) instead.
 */
function bothConfigurations(
  result: SchemaComparison,
  reading: Reading,
  direction: Direction,
  options: CompareOptions,
): SchemaComparison {
  if (result.verdict !== 'compatible') return result;
  const source = direction === 'input' ? reading.given.old : reading.given.new;
  const dialect = declared(source) ? dialectOf(source) : reading.undeclared;
  if (dialect === null) return result;
  const at = tupleBesideContains(source, dialect);
  if (at === undefined) return result;
  const finding: Finding = {
    rule: 'contains-beside-tuple',
    verdict: ruleVerdict('contains-beside-tuple', direction, options.strictOpenObjects === true),
    pointer: nearestPointer(reading.given.new, at),
    args: { dialect: DIALECT_URI[dialect] },
  };
  return { verdict: 'unknown', findings: [...result.findings, finding] };
}

/** Whether a side, as written, is a schema its reader's validator accepts. */
const valid = (schema: Schema, reading: Reading): boolean =>
  schemaProblem(asWritten(schema, reading)) === undefined;

/**
 * The readings that matter when they disagree or are both undecided. One in which the old schema is not a valid
 * schema at all, while the new one is, breaks no reader of it (they could not use the old
 * one), so it is left out when another reading remains. A new schema that is invalid in a
 * reading is kept: those readers lose the tool, and that reading stays undecided.
 */
function usable<T extends { given: Reading; result: SchemaComparison }>(results: T[]): T[] {
  const [a, b] = results;
  // Readings that agree on a decided verdict need no choosing.
  if (!a || !b || (a.result.verdict === b.result.verdict && a.result.verdict !== 'unknown')) return results;
  const kept = results.filter(({ given: r }) => valid(r.given.old, r) || !valid(r.given.new, r));
  return kept.length > 0 ? kept : results;
}

/**
 * Compares in every reading the pair needs (see readingsOf) with `single`, and answers what
 * holds for every reader: the same verdict everywhere is that verdict. Readings that disagree
 * are a break when one of them breaks, since the callers that read the schema that way are
 * broken: the witness is confirmed in that reading, and each breaking finding says which one.
 * Otherwise (compatible one way, undecided the other) the verdict is unknown
 * (`dialect-ambiguous`).
 */
export function compareInReadings(
  oldSchema: Schema,
  newSchema: Schema,
  direction: Direction,
  options: CompareOptions,
  single: Single,
): SchemaComparison {
  const readings = readingsOf(oldSchema, newSchema);
  if (readings === undefined) {
    const result = single(oldSchema, newSchema, direction, options);
    // Every pointer leads somewhere in the new schema: a keyword it lost points at its schema.
    for (const f of result.findings) f.pointer = nearestPointer(newSchema, f.pointer);
    return result;
  }
  const results = readings.map((r) => {
    const result = confirmAsWritten(
      withDialectChange(single(r.old, r.new, direction, options), r, direction, options),
      r,
      direction,
    );
    for (const f of result.findings)
      f.pointer = nearestPointer(newSchema, originalPointer(f.pointer, r.renames));
    return { reading: r.undeclared, given: r, result: bothConfigurations(result, r, direction, options) };
  });
  const strict = options.strictOpenObjects === true;
  // When the readings disagree, a side that declares its dialect and is invalid in it is
  // invalid for every reader, whatever the other side is read as.
  const disagree = results.length === 2 && results[0]!.result.verdict !== results[1]!.result.verdict;
  for (const side of disagree ? [oldSchema, newSchema] : []) {
    const problem = declared(side) ? schemaProblem(side) : undefined;
    if (problem !== undefined) {
      const error = problem.slice(0, 200);
      const invalid: Finding = {
        rule: 'schema-invalid',
        verdict: ruleVerdict('schema-invalid', direction, strict),
        pointer: '',
        args: { error },
      };
      return { verdict: 'unknown', findings: [invalid] };
    }
  }
  const kept = usable(results);
  const [first, second] = kept;
  if (!first) return single(oldSchema, newSchema, direction, options);
  // One reading left: its breaks hold for its readers alone, and say so.
  const left = results.find((r) => !kept.includes(r));
  if (left && first.result.verdict === 'breaking') {
    const reason = `breaking when the schema is read as ${first.reading}; it declares no $schema, and read as ${left.reading} the old schema is not valid`;
    return {
      verdict: 'breaking',
      findings: first.result.findings.map((f) => (f.verdict === 'breaking' ? { ...f, reason } : f)),
    };
  }
  const passes = (v: keyof typeof RANK): boolean => RANK[v] <= RANK.compatible;
  const same =
    second === undefined ||
    first.result.verdict === second.result.verdict ||
    (passes(first.result.verdict) && passes(second.result.verdict));
  if (same) {
    const worst = second && RANK[second.result.verdict] > RANK[first.result.verdict] ? second : first;
    return worst.result;
  }
  const broken = results.find((r) => r.result.verdict === 'breaking');
  const other = results.find((r) => r !== broken)!;
  if (broken) {
    const reason = `breaking when the schema is read as ${broken.reading}; it declares no $schema, and read as ${other.reading} the change is ${other.result.verdict}`;
    return {
      verdict: 'breaking',
      findings: broken.result.findings.map((f) => (f.verdict === 'breaking' ? { ...f, reason } : f)),
    };
  }
  const ambiguous: Finding = {
    rule: 'dialect-ambiguous',
    verdict: ruleVerdict('dialect-ambiguous', direction, strict),
    pointer: '',
    args: { as2020: first.result.verdict, asDraft07: second.result.verdict },
  };
  // What keeps each reading from deciding, once per rule and place.
  const undecided = new Map<string, Finding>();
  for (const f of results.flatMap((r) => r.result.findings))
    if (f.verdict === 'unknown') undecided.set(`${f.rule} ${f.pointer}`, f);
  return { verdict: 'unknown', findings: [ambiguous, ...undecided.values()] };
}
