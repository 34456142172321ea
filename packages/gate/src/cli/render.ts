import {
  jsonText,
  renderMessage,
  type Finding,
  type ManifestComparison,
  type Verdict,
} from '../compat/index.ts';
import { GATE_EXIT } from './io.ts';

const RANK: Record<string, number> = { unknown: 1, breaking: 2, compatible: 0 };
const DISAGREEMENTS = new Set(['sampling-disagrees', 'replay-disagrees']);

/** The finding that explains a tool's verdict best: a disagreement, then a break, then an unknown. */
export function headline(findings: readonly Finding[]): Finding | undefined {
  return [...findings].sort((a, b) => {
    const da = DISAGREEMENTS.has(a.rule) ? 10 : 0,
      db = DISAGREEMENTS.has(b.rule) ? 10 : 0;
    return db + (RANK[b.verdict] ?? 0) - (da + (RANK[a.verdict] ?? 0));
  })[0];
}

/** Human output: nothing for an identical manifest, one line per changed tool, one line for replay. */
export function renderText(result: ManifestComparison): string {
  const lines: string[] = [];
  for (const tool of result.tools) {
    if (tool.verdict === 'identical') continue;
    const top = headline(tool.findings);
    const more = tool.findings.length > 1 ? `; ${tool.findings.length - 1} more` : '';
    const detail = top
      ? `${renderMessage(top).replace(/\s+/g, ' ')} (${top.rule} at ${top.pointer || '/'}${more})`
      : '';
    lines.push(`${tool.name}: ${tool.verdict} — ${detail}`);
  }
  const { checked, rejected } = result.replay;
  if (rejected.length > 0)
    lines.push(`replay: ${rejected.length} of ${checked} recorded calls that were valid are now rejected`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** How many tools ended with each verdict; identical ones are counted though the report omits them. */
export interface Summary {
  breaking: number;
  unknown: number;
  compatible: number;
  identical: number;
}

/**
 * The counts a CI job reads without walking the findings. One place counts, so that counting
 * other surfaces (prompts, resources, skills) or several servers changes this function only.
 */
export function summarize(result: ManifestComparison): Summary {
  const summary: Summary = { breaking: 0, unknown: 0, compatible: 0, identical: 0 };
  for (const tool of result.tools) summary[tool.verdict] += 1;
  return summary;
}

/** The stable JSON contract: keys in a fixed order, every finding with a witness (null when none). */
export function renderJson(result: ManifestComparison): string {
  const doc = {
    verdict: result.verdict,
    summary: summarize(result),
    tools: result.tools
      .filter((t) => t.verdict !== 'identical')
      .map((t) => ({
        name: t.name,
        verdict: t.verdict,
        change: t.change,
        oldHash: t.oldHash,
        newHash: t.newHash,
        findings: t.findings.map((f) => ({
          rule: f.rule,
          verdict: f.verdict,
          pointer: f.pointer,
          message: renderMessage(f),
          witness: f.witness ?? null,
        })),
      })),
    replay: {
      checked: result.replay.checked,
      rejected: result.replay.rejected.map((r) => ({ line: r.line, tool: r.tool, error: r.error })),
    },
  };
  // Witnesses can be recorded calls of any depth: written without recursion.
  return `${jsonText(doc, 2)}\n`;
}

/** 0 identical or compatible; 1 breaking; 2 unknown (unless allowed) or a disagreement between signals. */
export function exitCode(result: ManifestComparison, allowUnknown: boolean): number {
  const disagreement = result.tools.some((t) => t.findings.some((f) => DISAGREEMENTS.has(f.rule)));
  if (disagreement) return GATE_EXIT.unknown;
  const verdict: Verdict = result.verdict;
  if (verdict === 'breaking') return GATE_EXIT.breaking;
  if (verdict === 'unknown') return allowUnknown ? GATE_EXIT.pass : GATE_EXIT.unknown;
  return GATE_EXIT.pass;
}
