// GitHub workflow commands: one annotation per changed item, on the line of the lockfile where
// the item is pinned, carrying every finding a person must read and the command that accepts it.
import { acceptCommand } from './accept-command.ts';
import { itemLabel, type GateResult } from '../lock/compare.ts';
import { callText, locate, relativePath, type Location, type RenderContext } from './context.ts';
import { changedItems, orderFindings, type Entry } from '../lock/order.ts';
import { findingLine, groupNames, oneLine } from './text.ts';
import { groupEntries, groupTitle, groupTitles, spread, type Group } from './groups.ts';
import { summarize, summaryLine } from './summary.ts';
import { itemLevel, severity } from './levels.ts';
import { launchFix } from './launch-fix.ts';
import { levelOf } from '../compat/index.ts';

/** The annotation of an item: its level's, with an unknown at error a warning, as before levels. */
const annotation = (item: Entry['item']): string => severity(itemLevel(item), item.verdict, 'notice');

/**
 * Annotations of one level a run writes at most: GitHub shows ten per level per step and drops
 * the rest without a word, so the gate writes nine items (the first of every group before the
 * second of any) and one tenth that counts the others, grouped as every report groups them
 * (report/groups.ts: "111 more: 100 tools removed, 11 tools changed (type-narrowed)").
 */
export const ANNOTATIONS_PER_LEVEL = 10;

/** Rejected recorded calls one shared annotation names, past the cap (the text report lists all). */
const CALLS_PER_ANNOTATION = 20;

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
  const groups = groupEntries(entries);
  const byLevel = new Map<string, Group[]>();
  for (const g of groups) {
    const level = severity(g.level, g.verdict as Entry['item']['verdict'], 'notice');
    byLevel.set(level, [...(byLevel.get(level) ?? []), g]);
  }
  const annotated = new Set<Entry>();
  const overflow: string[] = [];
  /** Plain log lines naming the items past the cap, a line per group. */
  const named: string[] = [];
  const rejected = result.servers.flatMap((s) =>
    s.comparison.replay.rejected.map((r) => ({ server: s.name, r })),
  );
  const errors = (byLevel.get('error') ?? []).reduce((n, g) => n + g.entries.length, 0);
  // Rejected recorded calls are errors too: past the cap they share one annotation.
  const callsApart = rejected.length > 1 && errors + rejected.length > ANNOTATIONS_PER_LEVEL;
  for (const [level, list] of byLevel) {
    const all = list.flatMap((g) => g.entries);
    const cap = ANNOTATIONS_PER_LEVEL - (level === 'error' ? (callsApart ? 1 : rejected.length) : 0);
    if (all.length <= cap) {
      all.forEach((e) => annotated.add(e));
      continue;
    }
    // The first of every group before the second of any: no group hides behind a larger one.
    spread(list, cap - 1).forEach((e) => annotated.add(e));
    const rest = groupEntries(all.filter((e) => !annotated.has(e)));
    const count = all.length - (cap - 1);
    // One level can hold several verdicts (an unknown and a compatible warning): named only when one.
    const verdicts = [...new Set(list.map((g) => g.verdict))];
    const more = `${count} more ${verdicts.length === 1 ? `${verdicts[0]} ` : ''}changes`;
    overflow.push(
      command(
        level,
        `warden gate: ${more}`,
        `${more}, not annotated one by one: ${groupTitles(rest, many)} (named in the log below; --format text --verbose shows each with its findings)`,
      ),
    );
    named.push(...rest.map((g) => `${g.verdict}: ${oneLine(groupTitle(g, many), 500)}${groupNames(g)}`));
  }
  const inOrder = groups.flatMap((g) => g.entries);
  for (const { server, item } of inOrder.filter((e) => annotated.has(e))) {
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
  out.push(...overflow, ...named);
  const callLine = (server: string, r: (typeof rejected)[number]['r']): string =>
    `${many ? `${server}: ` : ''}${callText(ctx, r)} — ${oneLine(r.error, 500)}`;
  if (callsApart) {
    const first = rejected[0] as (typeof rejected)[number];
    const at = ctx.callsFile ? { file: relativePath(ctx.callsFile), line: first.r.line } : undefined;
    const lines = rejected.slice(0, CALLS_PER_ANNOTATION).map((x) => callLine(x.server, x.r));
    const more = rejected.length - lines.length;
    if (more > 0) lines.push(`and ${more} more`);
    const title = `warden gate: ${rejected.length} recorded calls now rejected`;
    out.push(command('error', title, lines.join('\n'), at));
  } else {
    for (const { server, r } of rejected) {
      const at = ctx.callsFile ? { file: relativePath(ctx.callsFile), line: r.line } : undefined;
      const title = `warden gate: recorded call now rejected${many ? ` (${server})` : ''}`;
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
