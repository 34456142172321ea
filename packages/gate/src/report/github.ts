// GitHub workflow commands: one annotation per changed item, on the line of the lockfile where
// the item is pinned, carrying every finding a person must read and the command that accepts it.
import { acceptCommand } from './accept-command.ts';
import { itemLabel, type GateResult } from '../lock/compare.ts';
import { callText, locate, relativePath, type Location, type RenderContext } from './context.ts';
import { changedItems, orderFindings } from '../lock/order.ts';
import { findingLine, oneLine } from './text.ts';
import { summarize, summaryLine } from './summary.ts';

const LEVEL: Record<string, string> = { breaking: 'error', unknown: 'warning', compatible: 'notice' };

/** Data of a workflow command, escaped as the runner reads it. */
const data = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A property value: data escaping, and the separators `:` and `,` too. */
const prop = (s: string): string => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(level: string, title: string, message: string, at?: Location): string {
  const props = [...(at ? [`file=${prop(at.file)}`, `line=${at.line}`] : []), `title=${prop(title)}`];
  return `::${level} ${props.join(',')}::${data(message)}`;
}

export function renderGithub(result: GateResult, ctx: RenderContext): string {
  const many = result.servers.length > 1;
  const out: string[] = [];
  for (const { server, item } of changedItems(result)) {
    const label = oneLine(itemLabel(server, many, item.kind, item.name), 500);
    const [top, ...rest] = orderFindings(item.findings);
    const shown = ctx.verbose ? rest : rest.filter((f) => f.verdict !== 'compatible');
    const hidden = rest.length - shown.length;
    const lines = [
      top ? `${label}: ${findingLine(top)}` : `${label}: ${item.verdict}`,
      ...shown.map((f) => `${f.verdict}: ${findingLine(f)}`),
      ...(hidden > 0 ? [`and ${hidden} compatible finding${hidden === 1 ? '' : 's'}`] : []),
    ];
    const accept = acceptCommand(ctx, many, server, item);
    if (accept) lines.push(`accept: ${accept}`);
    const title = `warden gate: ${label} ${item.verdict}${top ? ` (${top.rule})` : ''}`;
    out.push(command(LEVEL[item.verdict] ?? 'notice', title, lines.join('\n'), locate(ctx, server, item)));
  }
  for (const s of result.servers) {
    for (const r of s.comparison.replay.rejected) {
      const at = ctx.callsFile ? { file: relativePath(ctx.callsFile), line: r.line } : undefined;
      const title = `warden gate: recorded call now rejected${many ? ` (${s.name})` : ''}`;
      out.push(command('error', title, `${callText(ctx, r)} — ${oneLine(r.error, 500)}`, at));
    }
  }
  // Plain lines in the log, not annotations: the hints, then the summary last.
  for (const r of result.renames ?? [])
    out.push(
      `maybe renamed: ${oneLine(itemLabel(r.server, many, r.kind, r.from), 500)} → ${oneLine(r.to, 500)}`,
    );
  out.push(`warden gate: ${summaryLine(summarize(result))}`);
  return `${out.join('\n')}\n`;
}
