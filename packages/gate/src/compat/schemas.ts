import { beyondBounds, measure } from './bounds.ts';
import type { RawFinding } from './engine/context.ts';
import { compareInReadings } from './readings.ts';
import { refCycle } from './ref-cycles.ts';
import { failureReason, isInvalidSchema } from './failure.ts';
import { startWalk } from './engine/includes.ts';
import type { SharedDecisions } from './engine/shared-decisions.ts';
import { unreachableProver } from './engine/unreachable.ts';
import { embed } from './generate/embed.ts';
import { FIRST } from './generate/chooser.ts';
import { sampleValues } from './generate/sample.ts';
import { canonicalJson, sameJson } from './hash.ts';
import { ruleVerdict, type RuleId } from './rules.ts';
import type { CompareOptions, Direction, Finding, Json, Schema, SchemaComparison } from './types.ts';
import {
  breakChecker,
  compileSchema,
  dialectOf,
  schemaProblem,
  type Dialect,
  type Validator,
} from './validator.ts';
import { combineVerdict } from './verdicts.ts';
import { besideInheritedNames } from './inherited-names.ts';
import { refInEmbeddedResource } from './embedded.ts';
import { asApplied } from './applied.ts';
import { resolveIds } from './ids.ts';

const DEFAULT_SAMPLES = 24;
/**
 * Schema values that building and verifying witnesses may walk in one comparison: each witness
 * is a value built from one side and validated on both. A change that breaks each of 10,000
 * properties is breaking after its first witnesses; the findings past this work are reported
 * unknown, unverified, rather than cost 10,000 walks of 10,000 properties.
 */
const WITNESS_WORK = 5_000_000;
const MIN_WITNESSES = 100;
/** Other places the same finding was met whose values are tried when the first place's fail. */
const OTHER_PLACES = 8;
const UNDECIDED_SAMPLES = 200;
/** Schemas up to this many values get the longer search; each sample of a larger one costs more. */
const LONG_SEARCH_VALUES = 2_000;

function smallEnough(schema: Schema): boolean {
  return measure(schema, Infinity, LONG_SEARCH_VALUES).over === undefined;
}

function finding(
  rule: RuleId,
  direction: Direction,
  strict: boolean,
  pointer: string,
  args: Finding['args'],
  extra: Partial<Finding> = {},
): Finding {
  return { rule, verdict: ruleVerdict(rule, direction, strict), pointer, args, ...extra };
}

function dedupe(raw: RawFinding[]): RawFinding[] {
  return grouped(raw).map((g) => g.first);
}

/**
 * Findings that say the same (rule, pointer, args), grouped: one is reported, but the same
 * change may be met at several places of an instance, and each place it was met is kept, with
 * the first finding met there (whose values may show the change where the first place's do not).
 */
function grouped(
  raw: RawFinding[],
): { first: RawFinding; trails: RawFinding['trail'][]; places: RawFinding[] }[] {
  const groups = new Map<string, { first: RawFinding; places: Map<RawFinding['trail'], RawFinding> }>();
  for (const f of raw) {
    const key = `${f.rule}\u0000${f.pointer}\u0000${canonicalJson(f.args)}`;
    const g = groups.get(key);
    if (!g) groups.set(key, { first: f, places: new Map([[f.trail, f]]) });
    else if (!g.places.has(f.trail)) g.places.set(f.trail, f);
  }
  return [...groups.values()].map((g) => ({
    first: g.first,
    trails: [...g.places.keys()],
    places: [...g.places.values()],
  }));
}

/** A comparison's settings, and what it shares with the other comparisons of its run. */
export interface JudgeOptions extends CompareOptions {
  /** Definitions decided by earlier comparisons (the other tools of a manifest), to replay. */
  decisions?: SharedDecisions;
}

/**
 * Classifies a schema change by set semantics. `input`: every value the old schema accepted
 * must stay valid. `output`: the new schema may only produce values the old one accepted.
 * Every breaking finding carries a witness confirmed by the validator, or becomes unknown;
 * a compatible verdict is cross-checked by sampling, and a disagreement fails closed.
 *
 * It never throws, whatever JSON it is given: this is the one place where an error in deciding
 * a schema becomes a verdict (unknown, with a reason), so a caller judging many schemas still
 * judges the rest.
 */
export function compareSchemas(
  oldSchema: Schema,
  newSchema: Schema,
  direction: Direction,
  options: JudgeOptions = {},
): SchemaComparison {
  const strict = options.strictOpenObjects === true;
  try {
    // Nothing recursive (the dialect rewrite, the walk, Ajv) may meet a schema beyond the
    // bounds: they are measured first, with an explicit stack.
    const same = sameJson(oldSchema, newSchema);
    const beyond = same ? undefined : (beyondBounds(oldSchema) ?? beyondBounds(newSchema));
    if (beyond)
      return { verdict: 'unknown', findings: [finding(beyond.rule, direction, strict, '', beyond.args)] };
    const cycle = refCycle(oldSchema) ?? refCycle(newSchema);
    if (cycle !== undefined)
      return { verdict: 'unknown', findings: [finding('ref-cycle', direction, strict, '', { ref: cycle })] };
    // A reference the ids of the document resolve is read as the pointer Ajv resolves it to (see
    // ids.ts); one left as written inside a resource of its own is not placed.
    const resolvedIn = (s: Schema): Schema =>
      declaresDialect(s) ? resolveIds(s, dialectOf(s) === 'draft-07') : resolveIds(s, false);
    const embedded = same
      ? undefined
      : (refInEmbeddedResource(resolvedIn(newSchema)) ?? refInEmbeddedResource(resolvedIn(oldSchema)));
    if (embedded !== undefined) {
      const { ref, id, at } = embedded;
      const args = { ref, id };
      return {
        verdict: 'unknown',
        findings: [finding('ref-in-embedded-resource', direction, strict, at, args)],
      };
    }
    // A document that declares its dialect is checked whole, as written, before any reading of
    // it: one its validator refuses is never compatible (nor breaking: it proves nothing).
    if (!same)
      for (const s of [oldSchema, newSchema]) {
        const problem = declaresDialect(s) && dialectOf(s) ? schemaProblem(s) : undefined;
        if (problem !== undefined)
          return {
            verdict: 'unknown',
            findings: [finding('schema-invalid', direction, strict, '', { error: problem })],
          };
      }
    const result = compareInReadings(oldSchema, newSchema, direction, options, compareOne);
    return besideInheritedNames(result, oldSchema, newSchema, direction, options);
  } catch (err) {
    const found = isInvalidSchema(err)
      ? finding('schema-invalid', direction, strict, '', {
          error: err.message.replace(/^schema is invalid: /, ''),
        })
      : finding('schema-unprocessable', direction, strict, '', { error: failureReason(err) });
    return { verdict: 'unknown', findings: [found] };
  }
}

function declaresDialect(schema: Schema): boolean {
  return (
    typeof schema === 'object' && schema !== null && !Array.isArray(schema) && schema.$schema !== undefined
  );
}

/** One reading of the pair: each side in the dialect it declares (see readings.ts, which places pointers). */
function compareOne(
  oldSchema: Schema,
  newSchema: Schema,
  direction: Direction,
  options: JudgeOptions,
): SchemaComparison {
  return decide(oldSchema, newSchema, direction, options);
}

function decide(
  oldSchema: Schema,
  newSchema: Schema,
  direction: Direction,
  options: JudgeOptions,
): SchemaComparison {
  if (sameJson(oldSchema, newSchema)) return { verdict: 'identical', findings: [] };
  const strict = options.strictOpenObjects === true;
  for (const s of [oldSchema, newSchema]) {
    if (typeof s !== 'boolean' && (typeof s !== 'object' || s === null || Array.isArray(s))) {
      const error = 'a schema must be an object or a boolean';
      return { verdict: 'unknown', findings: [finding('schema-invalid', direction, strict, '', { error })] };
    }
  }
  const dOld = dialectOf(oldSchema),
    dNew = dialectOf(newSchema);
  if (!dOld || !dNew) {
    const dialect =
      (!dOld ? (oldSchema as { $schema?: Json }).$schema : (newSchema as { $schema?: Json }).$schema) ?? null;
    return {
      verdict: 'unknown',
      findings: [finding('dialect-unsupported', direction, strict, '/$schema', { dialect })],
    };
  }
  // A schema the validator cannot accept (an invalid keyword value) proves nothing either way,
  // and the walk below reads keywords as the meta-schema types them, so it is asked first.
  const problem = schemaProblem(oldSchema) ?? schemaProblem(newSchema);
  if (problem !== undefined)
    return {
      verdict: 'unknown',
      findings: [finding('schema-invalid', direction, strict, '', { error: problem })],
    };
  // The walk reads each side as the validator applies it (nullable, references by name, dynamic
  // references Ajv fixes to the root); the validator itself is given the documents as written.
  const appliedOld = asApplied(oldSchema, dOld),
    appliedNew = asApplied(newSchema, dNew);
  const [given, givenSup] = direction === 'input' ? [oldSchema, newSchema] : [newSchema, oldSchema];
  const [sub, sup] =
    direction === 'input' ? [appliedOld.schema, appliedNew.schema] : [appliedNew.schema, appliedOld.schema];
  const [subDialect, supDialect] = direction === 'input' ? [dOld, dNew] : [dNew, dOld];
  // A dynamic reference the gate cannot fix means what the path of each value makes it mean.
  const dynamic = appliedNew.dynamic ?? appliedOld.dynamic;
  const unfollowed: Finding[] =
    dynamic === undefined
      ? []
      : [
          finding('dynamic-reference-unfollowed', direction, strict, appliedNew.dynamic ? dynamic.at : '', {
            keyword: dynamic.keyword,
            ref: dynamic.ref,
          }),
        ];
  const ctx = startWalk(
    {
      direction,
      strict,
      sub: { root: sub, dialect: subDialect },
      sup: { root: sup, dialect: supDialect },
      ...(options.decisions ? { decided: options.decisions } : {}),
    },
    options.budget,
  );
  // Where a dynamic reference leads is not known, so no part of the walk is either: the
  // validator's samples alone may still show a break.
  if (unfollowed.length === 0) ctx.include(sub, sup);
  const memory = ctx.shared.memory;
  if (memory.exhausted) {
    const args = { budget: memory.budget };
    return { verdict: 'unknown', findings: [finding('budget-exhausted', direction, strict, '', args)] };
  }
  // Nor does a reference the validator could not follow.
  const unresolved = dedupe(ctx.findings).filter((f) => f.rule === 'ref-unresolvable');
  if (unresolved.length > 0)
    return {
      verdict: 'unknown',
      findings: unresolved.map(({ trail: _t, local: _l, more: _m, rel: _r, ...f }) => f),
    };
  // The validator must also compile both sides (an invalid regex, an empty enum pass the
  // meta-schema but not the compiler): a schema it cannot apply proves nothing either way.
  for (const side of [given, givenSup]) {
    const failed = compileError(side);
    if (failed !== undefined)
      return {
        verdict: 'unknown',
        findings: [finding(failed.rule, direction, strict, '', { error: failed.error })],
      };
  }
  return judge(
    ctx.findings,
    { sub, sup, given, givenSup, unfollowed },
    subDialect as Dialect,
    direction,
    options,
  );
}

/** The two sides as the walk read them, as written (what the validator is given), and findings the walk could not make. */
interface Sides {
  sub: Schema;
  sup: Schema;
  given: Schema;
  givenSup: Schema;
  unfollowed: Finding[];
}

/**
 * Why the validator cannot compile a schema, in one line; undefined when it can. A schema the
 * validator refuses is invalid; one it runs out of stack building is valid but too large for
 * it, and says so (schema-unprocessable), whichever size the stack gives out at.
 */
function compileError(
  schema: Schema,
): { rule: 'schema-invalid' | 'schema-unprocessable'; error: string } | undefined {
  try {
    compileSchema(schema);
    return undefined;
  } catch (err) {
    // A stack overflow while building is the gate's to explain, not the runtime's to say.
    if (err instanceof RangeError)
      return { rule: 'schema-unprocessable', error: `the validator cannot build it: ${failureReason(err)}` };
    const line = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
    return { rule: 'schema-invalid', error: line.replace(/^schema is invalid: /, '').slice(0, 200) };
  }
}

/** Compiles a validator on first use: a compatible verdict often never needs the old side's. */
function lazyValidator(schema: Schema): Validator {
  let fn: Validator | undefined;
  return (value: unknown) => (fn ??= compileSchema(schema))(value);
}

/** Verifies witnesses, then cross-checks by sampling; validators compile only when needed. */
function judge(
  raw: RawFinding[],
  sides: Sides,
  subDialect: Dialect,
  direction: Direction,
  options: CompareOptions,
): SchemaComparison {
  const { sub, sup, given, givenSup } = sides;
  const subV = lazyValidator(given),
    supV = lazyValidator(givenSup);
  const proves = breakChecker(given, givenSup);
  const env = { root: sub, dialect: subDialect as Dialect, choose: FIRST, extras: false };
  let witnesses = Math.max(
    MIN_WITNESSES,
    Math.floor(WITNESS_WORK / (measure(sub).values + measure(sup).values)),
  );
  const unreachable = unreachableProver(sub);
  // A change where the kept side accepts no value breaks nothing there: said so, not unknown.
  // It must be so at every place the change was met.
  const settle = (f: Finding, trails: RawFinding['trail'][]): Finding =>
    trails.every(unreachable)
      ? finding('change-unreachable', direction, options.strictOpenObjects === true, f.pointer, {
          rule: f.rule,
          side: direction === 'input' ? 'old' : 'new',
        })
      : f;
  const findings: Finding[] = grouped(raw).map(({ first, trails, places }) => {
    const { trail, local, more, rel: _rel, ...f } = first;
    if (f.verdict === 'unknown') return settle(f, trails);
    if (f.verdict !== 'breaking') return f;
    if (witnesses-- <= 0)
      return {
        ...f,
        verdict: 'unknown',
        reason: 'not verified: the witnesses of earlier findings used the work allowed',
      };
    const value = local?.();
    const witness = value === undefined ? undefined : embed(trail, value, env);
    if (witness !== undefined && proves(witness)) return { ...f, witness };
    // Another value of the same place may be one the other side rejects (the first one built
    // may be accepted there by another branch): each is confirmed as the first would have been.
    for (const other of more?.() ?? []) {
      const w = other === undefined ? undefined : embed(trail, other, env);
      if (w !== undefined && proves(w)) return { ...f, witness: w };
    }
    // The same change met at another place of an instance (another key a pattern stands for,
    // another reference to the same definition) may be reached there by a value that is valid.
    for (const at of places.slice(1, 1 + OTHER_PLACES)) {
      const v = at.local?.();
      const w = v === undefined ? undefined : embed(at.trail, v, env);
      if (w !== undefined && proves(w)) return { ...f, witness: w };
    }
    // A container on the way may have been known by one allOf conjunct only: built again with
    // what its parent's value holds there (the members the other conjuncts require).
    const filled = value === undefined ? undefined : embed(trail, value, env, true);
    if (filled !== undefined && filled !== witness && proves(filled)) return { ...f, witness: filled };
    const reason =
      value === undefined
        ? 'no witness could be built for it'
        : 'the witness built for it was not confirmed by the validator';
    return settle({ ...f, verdict: 'unknown', reason }, trails);
  });
  findings.push(...sides.unfollowed);
  const checked = crossCheckBySampling(
    findings,
    sub,
    givenSup,
    subDialect,
    direction,
    options,
    [subV, supV],
    given,
  );
  return { verdict: combineVerdict(checked), findings: checked };
}

/**
 * The second signal: values sampled from the side whose values must stay valid are validated
 * on the other side. If the rules said compatible and a sample fails, the signals disagree and
 * the verdict fails closed; if the rules could not decide, the sample proves the break.
 */
export function crossCheckBySampling(
  findings: Finding[],
  sub: Schema,
  sup: Schema,
  subDialect: Dialect,
  direction: Direction,
  options: CompareOptions = {},
  validators: [Validator, Validator] = [lazyValidator(sub), lazyValidator(sup)],
  /** The kept side as written, when `sub` is its reading (see applied.ts): the validator is given this. */
  givenSub: Schema = sub,
): Finding[] {
  const staticVerdict = combineVerdict(findings);
  if (staticVerdict === 'breaking') return findings;
  const strict = options.strictOpenObjects === true;
  const [subV, supV] = validators;
  const samples = sampleValues(
    sub,
    subDialect,
    // An undecided verdict is worth a longer search: one sample the new side rejects decides it.
    options.samples ??
      (staticVerdict === 'unknown' && smallEnough(sub) ? UNDECIDED_SAMPLES : DEFAULT_SAMPLES),
    options.seed ?? 1,
    strict,
  );
  const counter = samples.find((v) => !supV(v) && subV(v));
  if (counter === undefined) return findings;
  // A sample proves the break only if every configuration of the validator sees it.
  if (staticVerdict !== 'compatible' && !breakChecker(givenSub, sup)(counter)) return findings;
  const rule = staticVerdict === 'compatible' ? 'sampling-disagrees' : 'sampled-break';
  return [...findings, finding(rule, direction, strict, '', {}, { witness: counter })];
}
