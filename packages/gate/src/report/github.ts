// GitHub workflow commands: one annotation per changed item, on the line of the lockfile where
// the item is pinned, carrying every finding a person must read and the command that accepts it.
import { acceptCommand } from './accept-command.ts';
import { itemLabel, type GateResult } from '../lock/compare.ts';
import { callText, locate, relativePath, type Location, type RenderContext } from './context.ts';
import { changedItems, orderFindings, type Entry } from '../lock/order.ts';
import { findingLine, oneLine } from './text.ts';
import { summarize, summaryLine } from './summary.ts';
import { itemLevel, severity } from './levels.ts';
import { launchFix } from './launch-fix.ts';
import { levelOf } from '../compat/index.ts';

/** The annotation of an item: its level's, with an unknown at error a warning, as before levels. */
const annotation = (item: Entry['item']): string => severity(itemLevel(item), item.verdict, 'notice');

/**
 * Annotations of one level a run writes at most: GitHub shows ten per level per step and drops
 * the rest without a word, so the gate writes nine items and one tenth that counts the others,
 * grouped by server and kind of change ("111 more: 100 tools removed, 11 tools changed").
 */
export const ANNOTATIONS_PER_LEVEL = 10;

/** Data of a workflow command, escaped as the runner reads it. */
const data = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A property value: data escaping, and the separators `:` and `,` too. */
const prop = (s: string): string => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function command(level: string, title: string, message: string, at?: Location): string {
  const props = [...(at ? [`file=${prop(at.file)}`, `line=${at.line}`] : []), `title=${prop(title)}`];
  return `::${level} ${props.join(',')}::${data(message)}`;
}

export function renderGithub(result: GateResult, ctx: RenderContext): string {
  const many = result.servers.length > 1;
  const out: string[] = [];
  const entries = changedItems(result).filter((e) => ctx.verbose || itemLevel(e.item) !== 'info');
  const byLevel = new Map<string, Entry[]>();
  for (const e of entries) {
    const level = annotation(e.item);
    byLevel.set(level, [...(byLevel.get(level) ?? []), e]);
  }
  const annotated = new Set<Entry>();
  const overflow: string[] = [];
  /** Plain log lines naming the items past the cap, a line per group. */
  const listed: string[] = [];
  for (const [level, list] of byLevel) {
    if (list.length <= ANNOTATIONS_PER_LEVEL) {
      list.forEach((e) => annotated.add(e));
      continue;
    }
    const shown = list.slice(0, ANNOTATIONS_PER_LEVEL - 1);
    shown.forEach((e) => annotated.add(e));
    const rest = list.slice(ANNOTATIONS_PER_LEVEL - 1);
    const verdict = rest[0]?.item.verdict ?? '';
    overflow.push(
      command(
        level,
        `warden gate: ${rest.length} more ${verdict} changes`,
        `${rest.length} more ${verdict} changes, not annotated one by one: ${groupCounts(rest, many)} (named in the log below; --format text shows each with its findings)`,
      ),
    );
    listed.push(...groupLines(rest, many, verdict));
  }
  for (const { server, item } of entries.filter((e) => annotated.has(e))) {
    const label = oneLine(itemLabel(server, many, item.kind, item.name), 500);
    const [top, ...rest] = orderFindings(item.findings);
    const shown = ctx.verbose
      ? rest
      : rest.filter((f) => f.verdict !== 'compatible' || levelOf(f) !== 'info');
    const hidden = rest.length - shown.length;
    const lines = [
      top ? `${label}: ${findingLine(top)}` : `${label}: ${item.verdict}`,
      ...shown.map((f) => `${f.verdict}: ${findingLine(f)}`),
      ...(hidden > 0 ? [`and ${hidden} compatible finding${hidden === 1 ? '' : 's'}`] : []),
    ];
    const accept = acceptCommand(ctx, many, server, item);
    if (accept) lines.push(`accept: ${accept}`);
    for (const f of item.findings) {
      const fix = launchFix(f, ctx.launchFile);
      if (fix) lines.push(`fix: ${fix}`);
    }
    const title = `warden gate: ${label} ${item.verdict}${top ? ` (${top.rule})` : ''}`;
    out.push(command(annotation(item), title, lines.join('\n'), locate(ctx, server, item)));
  }
  out.push(...overflow, ...listed);
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

/** Items counted by server and kind of change, largest group first: `100 tools removed, 11 tools changed`. */
function groupCounts(entries: readonly Entry[], many: boolean): string {
  const groups = new Map<string, number>();
  for (const { server, item } of entries) {
    const key = `${many ? `${server}: ` : ''}${item.kind}\u0000${item.change}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups]
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => {
      const [kind, change] = key.split('\u0000') as [string, string];
      return `${n} ${kind}${n === 1 ? '' : 's'} ${change}`;
    })
    .join(', ');
}

/** Most names a log line of a group shows. */
const NAMES_PER_LINE = 20;

/** One plain log line per server and kind of change: `breaking: 100 tools removed: a, b, … and 80 more`. */
function groupLines(entries: readonly Entry[], many: boolean, verdict: string): string[] {
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const key = `${e.server}\u0000${e.item.kind}\u0000${e.item.change}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()].map((list) => {
    const { server, item } = list[0] as Entry;
    const names = list.slice(0, NAMES_PER_LINE).map((e) => oneLine(e.item.name, 200));
    const more = list.length > NAMES_PER_LINE ? ` and ${list.length - NAMES_PER_LINE} more` : '';
    const n = list.length;
    return `${verdict}: ${many ? `${server}: ` : ''}${n} ${item.kind}${n === 1 ? '' : 's'} ${item.change}: ${names.join(', ')}${more}`;
  });
}
