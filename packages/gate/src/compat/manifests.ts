import { argumentFindings } from './arguments.ts';
import { beyondBounds } from './bounds.ts';
import { conformanceFindings } from './conformance.ts';
import { compareEffects } from './effects.ts';
import { failureReason } from './failure.ts';
import { FIRST } from './generate/chooser.ts';
import { generate } from './generate/value.ts';
import { definitionHash, sameJson } from './hash.ts';
import { jsonText } from './json-text.ts';
import { callValidators, whyRejected, type RecordedCall, type ReplayResult } from './replay.ts';
import { getRule } from './rules.ts';
import { nearestPointer, toPointer } from './pointer.ts';
import { SharedDecisions } from './engine/shared-decisions.ts';
import { compareSchemas } from './schemas.ts';
import { textChange } from './surfaces/text.ts';
import { asTools, type Tool } from './tools.ts';
import type { CompareOptions, Finding, Json, JsonObject, Schema, Verdict } from './types.ts';
import { compileSchema, dialectOf } from './validator.ts';
import { combineVerdict, worstVerdict } from './verdicts.ts';

export interface ManifestOptions extends CompareOptions {
  /** Fail on description-only changes: descriptions are where rug-pulls hide. */
  strictDescriptions?: boolean;
  /** Recorded calls to replay against the new manifest (the second signal). */
  calls?: readonly RecordedCall[];
  /**
   * Fail closed on a served tool that is not valid MCP (`tool-not-conformant` becomes unknown,
   * even for a tool that did not change). Off by default: the gate pins any server.
   */
  strictConformance?: boolean;
}

export interface ToolReport {
  name: string;
  verdict: Verdict;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  oldHash: string | null;
  newHash: string | null;
  findings: Finding[];
}

export interface ManifestComparison {
  verdict: Verdict;
  /** Every tool of either side, sorted by name; unchanged ones have verdict identical. */
  tools: ToolReport[];
  replay: ReplayResult;
}

/** A tools array or a `tools/list` result; anything else reads as no tools (see asTools). */
type Manifest = readonly Tool[] | { tools: readonly Tool[] } | Json;

const KNOWN_FIELDS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

/** Args without the absent ones: a message then says "absent", not "null". */
function present(args: Record<string, Json | undefined>): Record<string, Json> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as Record<string, Json>;
}

function prefixed(findings: Finding[], prefix: string): Finding[] {
  return findings.map((f) => ({ ...f, pointer: prefix + f.pointer }));
}

/**
 * Minimal valid arguments of a removed tool: any call like it now fails. A removal breaks with
 * or without one, so a schema that cannot give one (beyond the bounds, invalid) gives none.
 */
function removalWitness(tool: Tool): Json | undefined {
  const schema = (tool.inputSchema ?? {}) as Schema;
  if (beyondBounds(schema)) return undefined;
  try {
    const value = generate(schema, {
      root: schema,
      dialect: dialectOf(schema) ?? '2020-12',
      choose: FIRST,
      extras: false,
    });
    return value !== undefined && compileSchema(schema)(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A description as text; one that is not a string (not valid MCP) is compared as its JSON. */
function textOf(value: Json | undefined): string {
  return value === undefined ? '' : typeof value === 'string' ? value : jsonText(value);
}

function compareTool(before: Tool, after: Tool, options: ManifestOptions): Finding[] {
  const findings: Finding[] = [];
  findings.push(
    ...textChange(
      'tool-description-changed',
      '/description',
      textOf(before.description),
      textOf(after.description),
      options.strictDescriptions === true,
    ),
  );
  if (!sameJson(before.title, after.title)) {
    findings.push({
      rule: 'tool-title-changed',
      verdict: 'compatible',
      pointer: '/title',
      args: present({ old: before.title, new: after.title }),
    });
  }
  const ba = (before.annotations ?? {}) as JsonObject,
    aa = (after.annotations ?? {}) as JsonObject;
  const effects = compareEffects(ba, aa);
  for (const f of effects) findings.push(f);
  for (const k of new Set([...Object.keys(ba), ...Object.keys(aa)])) {
    if (effects.some((f) => f.args.keyword === k)) continue;
    if (!sameJson(ba[k], aa[k])) {
      findings.push({
        rule: 'tool-annotations-changed',
        verdict: 'compatible',
        pointer: toPointer(['annotations', k]),
        args: present({ keyword: k, old: ba[k], new: aa[k] }),
      });
    }
  }
  const input = compareSchemas(
    (before.inputSchema ?? {}) as Schema,
    (after.inputSchema ?? {}) as Schema,
    'input',
    options,
  );
  const inputFindings = prefixed(input.findings, '/inputSchema');
  for (const f of argumentFindings(before.inputSchema, after.inputSchema, inputFindings)) findings.push(f);
  if (after.outputSchema !== undefined && before.outputSchema === undefined) {
    findings.push({ rule: 'output-schema-added', verdict: 'compatible', pointer: '/outputSchema', args: {} });
  } else if (before.outputSchema !== undefined) {
    const output = compareSchemas(
      before.outputSchema as Schema,
      (after.outputSchema ?? true) as Schema,
      'output',
      options,
    );
    for (const f of prefixed(output.findings, '/outputSchema')) findings.push(f);
  }
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!KNOWN_FIELDS.has(k) && !sameJson(before[k], after[k])) {
      findings.push({
        rule: 'tool-field-changed',
        verdict: 'compatible',
        pointer: toPointer([k]),
        args: { field: k },
      });
    }
  }
  return findings;
}

/**
 * One tool's report, and the one place where an error in judging a tool becomes its verdict:
 * unknown, with a one-line reason, while every other tool is still judged.
 */
function judgeTool(
  name: string,
  before: Tool | undefined,
  after: Tool | undefined,
  options: ManifestOptions,
): ToolReport {
  try {
    return reportTool(name, before, after, options);
  } catch (err) {
    const hash = (t: Tool | undefined): string | null => {
      try {
        return t ? definitionHash(t) : null;
      } catch {
        return null;
      }
    };
    const f: Finding = {
      rule: 'tool-unprocessable',
      verdict: 'unknown',
      pointer: '',
      args: { error: failureReason(err) },
    };
    const change = !before ? 'added' : !after ? 'removed' : 'changed';
    return { name, verdict: 'unknown', change, oldHash: hash(before), newHash: hash(after), findings: [f] };
  }
}

function reportTool(
  name: string,
  before: Tool | undefined,
  after: Tool | undefined,
  options: ManifestOptions,
): ToolReport {
  const oldHash = before ? definitionHash(before) : null;
  // An unchanged tool (most of a manifest, usually) is hashed once: equal JSON, equal hash.
  const newHash = after ? (before && sameJson(before, after) ? oldHash : definitionHash(after)) : null;
  if (!after) {
    const witness = before ? removalWitness(before) : undefined;
    const f: Finding = {
      rule: 'tool-removed',
      verdict: 'breaking',
      pointer: '',
      args: {},
      ...(witness !== undefined ? { witness } : {}),
    };
    return { name, verdict: 'breaking', change: 'removed', oldHash, newHash, findings: [f] };
  }
  const conformance = conformanceFindings(after).map((f) =>
    options.strictConformance ? { ...f, verdict: 'unknown' as const, reason: 'conformance is strict' } : f,
  );
  if (!before) {
    const findings: Finding[] = [
      { rule: 'tool-added', verdict: 'compatible', pointer: '', args: {} },
      ...conformance,
    ];
    return { name, verdict: combineVerdict(findings), change: 'added', oldHash, newHash, findings };
  }
  if (oldHash === newHash) {
    // Unchanged but not valid MCP: only worth a line when the caller asked to fail on it.
    if (options.strictConformance && conformance.length > 0)
      return { name, verdict: 'unknown', change: 'unchanged', oldHash, newHash, findings: conformance };
    return { name, verdict: 'identical', change: 'unchanged', oldHash, newHash, findings: [] };
  }
  const findings = [...compareTool(before, after, options), ...conformance];
  return { name, verdict: combineVerdict(findings), change: 'changed', oldHash, newHash, findings };
}

/**
 * Per-tool verdicts between two manifests, with recorded calls replayed as a second signal:
 * a call that was valid and is now rejected is a break, and if the rules had found the tool
 * compatible without an assumption that explains it, the two signals disagree (fail closed).
 */
export function compareManifests(
  oldManifest: Manifest,
  newManifest: Manifest,
  options: ManifestOptions = {},
): ManifestComparison {
  const olds = new Map(asTools(oldManifest).map((t) => [t.name, t]));
  const news = new Map(asTools(newManifest).map((t) => [t.name, t]));
  const names = [...new Set([...olds.keys(), ...news.keys()])].sort();
  // The tools of a manifest share definitions: each pair of them is decided once (see shared-decisions.ts).
  const judging = { ...options, decisions: new SharedDecisions() };
  const tools = names.map((name) => judgeTool(name, olds.get(name), news.get(name), judging));
  const replayResult = applyReplay(tools, olds, news, options);
  for (const t of tools) {
    // Pointers lead into the tool's new definition (its old one for a removed tool).
    const doc = news.get(t.name) ?? olds.get(t.name);
    t.findings = t.findings.map((f) => ({ ...f, tool: t.name, pointer: nearestPointer(doc, f.pointer) }));
  }
  return { verdict: worstVerdict(tools.map((t) => t.verdict)), tools, replay: replayResult };
}

/**
 * Replays recorded calls into the tool reports: a call the old manifest accepted and the new
 * one rejects is a break with that call as witness; unexplained by the rules, a disagreement.
 */
export function applyReplay(
  tools: ToolReport[],
  olds: Map<string, Tool>,
  news: Map<string, Tool>,
  options: ManifestOptions,
): ReplayResult {
  const calls = options.calls ?? [];
  const result: ReplayResult = { checked: calls.length, rejected: [] };
  if (calls.length === 0) return result;
  const before = callValidators([...olds.values()]);
  const after = callValidators([...news.values()]);
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const call of calls) {
    const was = before.get(call.tool);
    if (!was || !was(call.arguments)) continue; // not valid before: no evidence either way
    const now = after.get(call.tool);
    if (now && now(call.arguments)) continue;
    const error = whyRejected([...news.values()], call);
    result.rejected.push({ line: call.line, tool: call.tool, error });
    const report = byName.get(call.tool);
    if (!report) continue;
    const args = { line: call.line, error };
    const explained =
      report.verdict === 'breaking' || report.findings.some((f) => getRule(f.rule).input === 'assumed');
    if (!report.findings.some((f) => f.rule === 'replay-rejected-call')) {
      report.findings.push({
        rule: 'replay-rejected-call',
        verdict: 'breaking',
        pointer: '/inputSchema',
        args,
        witness: call.arguments,
      });
      if (!explained)
        report.findings.push({
          rule: 'replay-disagrees',
          verdict: 'unknown',
          pointer: '/inputSchema',
          args,
          witness: call.arguments,
        });
    }
    report.verdict = combineVerdict(report.findings);
  }
  return result;
}
