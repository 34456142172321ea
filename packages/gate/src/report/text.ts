// The text report: the changed items grouped by server and kind of change, breaking first, each
// with every finding that needs a person and the command that accepts it, a group's first few
// listed and the rest counted; then replay, rename hints, and the summary line last.
import { levelOf, renderMessage, type Finding, type ManifestComparison } from '../compat/index.ts';
import { forPeople } from '../text/index.ts';
import { acceptAllCommand, acceptCommand } from './accept-command.ts';
import { itemLabel, type GateResult } from '../lock/compare.ts';
import { callText, PLAIN, type RenderContext } from './context.ts';
import { changedItems, orderFindings, type Entry } from '../lock/order.ts';
import { groupEntries, groupTitle, listed, serversCut, SINGLE, type Group } from './groups.ts';
import { summarize, summaryLine } from './summary.ts';
import { exceptionText, itemLevel } from './levels.ts';
import { launchFix } from './launch-fix.ts';

/** Text on one line (a diff or a validator error may span several), hidden characters shown. */
export function oneLine(text: string, max = 50_000): string {
  return forPeople(text.replace(/\s+/g, ' ').trim(), max);
}

/** `MESSAGE (RULE at POINTER)`: a finding in one line. */
export function findingLine(f: Finding, more = ''): string {
  return `${oneLine(renderMessage(f))} (${f.rule} at ${f.pointer || '/'}${more})${exceptionText(f)}`;
}

/** A tools-only comparison (compareManifests) as the result of one server. */
function asGateResult(result: GateResult | ManifestComparison): GateResult {
  if ('servers' in result) return result;
  const items = result.tools.map((t) => ({ kind: 'tool' as const, ...t }));
  const comparison = { verdict: result.verdict, items, replay: result.replay, unpinned: [], unread: [] };
  return { verdict: result.verdict, servers: [{ name: 'default', comparison }] };
}

/** Most names a one-line group shows. */
const NAMES_PER_LINE = 20;

/**
 * The names of a group's items after its title, bounded: `: a, b, … and 80 more`; nothing for a
 * kind a server has one of (instructions, server, launch).
 */
export function groupNames(group: Group, max = NAMES_PER_LINE): string {
  if (SINGLE.has(group.kind)) return '';
  const names = group.entries.slice(0, max).map((e) => oneLine(e.item.name, 200));
  const more = group.entries.length > max ? ` and ${group.entries.length - max} more` : '';
  return `: ${names.join(', ')}${more}`;
}

/** One item's lines: a headline, the other findings a person must read, the accept command. */
function entryLines(entry: Entry, many: boolean, ctx: RenderContext): string[] {
  const { server, item } = entry;
  const label = oneLine(itemLabel(server, many, item.kind, item.name), 500);
  const [top, ...rest] = orderFindings(item.findings);
  const shown = ctx.verbose ? rest : rest.filter((f) => f.verdict !== 'compatible' || levelOf(f) !== 'info');
  const hidden = rest.length - shown.length;
  const more = hidden > 0 ? `; +${hidden} compatible` : '';
  // The level is named where it is not the verdict's own (a warning, an error a team raised).
  const verdict = `${item.verdict}${tag(itemLevel(item), item.verdict)}`;
  const lines = [top ? `${label}: ${verdict} — ${findingLine(top, more)}` : `${label}: ${verdict}`];
  for (const f of shown) lines.push(`  ${f.verdict}${tag(levelOf(f), f.verdict)} — ${findingLine(f)}`);
  const command = acceptCommand(ctx, many, server, item);
  if (command) lines.push(`  accept: ${command}`);
  for (const f of item.findings) {
    const fix = launchFix(f, ctx.launchFile);
    if (fix) lines.push(`  fix: ${fix}`);
  }
  return lines;
}

/**
 * The items, grouped (`breaking: 100 resources removed`), each group's first few listed below
 * it and the rest counted; the one `accept --all` command when some change to bless is not listed.
 */
function itemLines(result: GateResult, ctx: RenderContext): string[] {
  const many = result.servers.length > 1;
  const groups = groupEntries(changedItems(result));
  const lines: string[] = [];
  for (const group of groups) {
    const title = `${group.verdict}${tag(group.level, group.verdict)}: ${oneLine(groupTitle(group, many), 500)}`;
    // A compatible change at info needs no hand: its group is one line, naming the items
    // (--verbose lists them). A warning is listed: someone should read it.
    if (group.verdict === 'compatible' && group.level === 'info' && !ctx.verbose) {
      lines.push(`${title}${groupNames(group)}`);
      continue;
    }
    const shown = listed(group, ctx.verbose);
    lines.push(title);
    for (const entry of shown) lines.push(...entryLines(entry, many, ctx).map((l) => `  ${l}`));
    const rest = group.entries.length - shown.length;
    if (rest > 0)
      lines.push(`  … and ${rest} more ${rest === 1 ? 'is' : 'are'} not listed (--verbose lists every one)`);
  }
  for (const server of serversCut(groups, ctx.verbose)) {
    const command = acceptAllCommand(ctx, many, server);
    if (command) lines.push(`accept them all at once, once reviewed as a whole: ${command}`);
  }
  return lines;
}

/** ` (warning)` beside a verdict whose level is not the one it gives by default. */
function tag(level: string, verdict: string): string {
  const usual = verdict === 'compatible' ? 'info' : 'error';
  return level === usual ? '' : ` (${level})`;
}

/** Replay, surfaces not judged, and rename hints: what the items alone do not say. */
function noteLines(result: GateResult, ctx: RenderContext): string[] {
  const many = result.servers.length > 1;
  const lines: string[] = [];
  for (const { name, comparison } of result.servers) {
    const { checked, rejected } = comparison.replay;
    if (rejected.length > 0) {
      lines.push(
        `replay${many ? ` (${name})` : ''}: ${rejected.length} of ${checked} recorded calls that were valid are now rejected`,
      );
      for (const r of rejected) lines.push(`  ${callText(ctx, r)} — ${oneLine(r.error, 500)}`);
    }
    const where = many ? `${name}: ` : '';
    if (comparison.unpinned.length > 0)
      lines.push(
        `${where}not judged: ${comparison.unpinned.join(', ')} (not in the lock yet; accept pins them)`,
      );
    if (comparison.unread.length > 0)
      lines.push(
        `${where}not judged: ${comparison.unread.join(', ')} (pinned, but not read from this source)`,
      );
  }
  for (const r of result.renames ?? [])
    lines.push(
      `maybe renamed: ${oneLine(itemLabel(r.server, many, r.kind, r.from), 500)} → ${oneLine(r.to, 500)}`,
    );
  return lines;
}

/**
 * Human output. It always ends with the summary line, so a run never prints nothing; a
 * library caller may pass a tools-only comparison, rendered as one server's.
 */
export function renderText(result: GateResult | ManifestComparison, ctx: RenderContext = PLAIN): string {
  const gate = asGateResult(result);
  const lines = [...itemLines(gate, ctx), ...noteLines(gate, ctx), summaryLine(summarize(gate))];
  return `${lines.join('\n')}\n`;
}
