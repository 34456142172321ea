import { jsonText, levelOf, renderMessage } from '../compat/index.ts';
import { acceptCommand } from './accept-command.ts';
import type { GateResult } from '../lock/compare.ts';
import { recordedCall, type RenderContext } from './context.ts';
import { changedItems, orderFindings } from '../lock/order.ts';
import { summarize } from './summary.ts';

/**
 * The shape of the JSON report, published as schema/report.schema.json (the package's
 * `./report.schema.json`). A change a reader of the old shape would trip on is a new version;
 * test/report/json.test.ts judges every change of the schema with the gate itself.
 * Version 1 is the unversioned shape that listed `tools` at the top.
 */
export const JSON_REPORT_VERSION = 2;

/**
 * The stable JSON contract: keys in a fixed order; per server its changed items (breaking
 * first, findings likewise), each finding with a witness (null when none), the command that
 * accepts a breaking or unknown item, replay with the rejected calls themselves, and rename hints.
 */
export function renderJson(result: GateResult, ctx: RenderContext): string {
  const many = result.servers.length > 1;
  const doc = {
    version: JSON_REPORT_VERSION,
    verdict: result.verdict,
    summary: summarize(result),
    servers: result.servers.map((s) => ({
      name: s.name,
      verdict: s.comparison.verdict,
      items: changedItems({ verdict: s.comparison.verdict, servers: [s] }).map(({ item }) => ({
        kind: item.kind,
        name: item.name,
        verdict: item.verdict,
        change: item.change,
        oldHash: item.oldHash,
        newHash: item.newHash,
        accept: acceptCommand(ctx, many, s.name, item) ?? null,
        findings: orderFindings(item.findings).map((f) => ({
          rule: f.rule,
          verdict: f.verdict,
          level: levelOf(f),
          pointer: f.pointer,
          message: renderMessage(f),
          witness: f.witness ?? null,
          exception: f.exception ?? null,
        })),
      })),
      replay: {
        checked: s.comparison.replay.checked,
        rejected: s.comparison.replay.rejected.map((r) => ({
          line: r.line,
          tool: r.tool,
          arguments: recordedCall(ctx, r.line)?.arguments ?? null,
          error: r.error,
        })),
      },
      renames: (result.renames ?? [])
        .filter((r) => r.server === s.name)
        .map((r) => ({ kind: r.kind, from: r.from, to: r.to })),
      unpinned: s.comparison.unpinned,
      unread: s.comparison.unread,
    })),
  };
  // Witnesses can be recorded calls of any depth: written without recursion.
  return `${jsonText(doc, 2)}\n`;
}
