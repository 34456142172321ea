// The Markdown report, for a pull request comment or a job summary: the verdict, the summary
// line, per server its changes grouped (report/groups.ts) and a table listing each group's first
// few, and per listed breaking or unknown item every finding and its accept command.
import { levelOf, renderMessage, type Finding } from '../compat/index.ts';
import { exceptionText } from './levels.ts';
import { acceptAllCommand, acceptCommand } from './accept-command.ts';
import { itemLabel, type GateResult, type ServerResult } from '../lock/compare.ts';
import { callText, locate, type RenderContext } from './context.ts';
import { changedItems, isBlessable, orderFindings, type Entry } from '../lock/order.ts';
import { oneLine } from './text.ts';
import { groupEntries, groupTitle, listed, serversCut } from './groups.ts';
import { summarize, summaryLine } from './summary.ts';

const ICON: Record<string, string> = { breaking: '❌', unknown: '❓', compatible: '✅' };

/** Text in HTML: `&`, `<`, `>` and `|` (a table's separator) as entities. */
function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '&#124;');
}

/**
 * Text in Markdown: HTML escaped, and the punctuation Markdown reads escaped (`_` only where it
 * could start or end emphasis: inside a word, as in `read_file`, it is read as itself).
 */
export function mdText(text: string): string {
  // Markdown first: the entities the HTML escaping writes hold a `#` that must stay as it is.
  return html(
    text.replace(/([\\`*[\]~#])/g, '\\$1').replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_'),
  );
}

/** A name, rule or pointer as code in Markdown text (a table cell, a list), whatever it holds. */
export function mdCode(text: string): string {
  return `<code>${mdText(text)}</code>`;
}

/** The same inside an HTML block (a details summary), where Markdown is not read. */
const htmlCode = (text: string): string => `<code>${html(text)}</code>`;

/** A fenced block whose fence is longer than any run of backticks inside it. */
export function fenced(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

function item(e: Entry, code = mdCode): string {
  return e.item.kind === 'instructions' || e.item.kind === 'server' || e.item.kind === 'launch'
    ? e.item.kind
    : `${e.item.kind} ${code(oneLine(e.item.name, 300))}`;
}

const pointer = (f: Finding): string => mdCode(oneLine(f.pointer || '/', 500));

function where(ctx: RenderContext, e: Entry, f: Finding | undefined): string {
  const at = locate(ctx, e.server, e.item);
  const parts = [at ? mdCode(`${oneLine(at.file, 500)}:${at.line}`) : '', f ? pointer(f) : ''];
  return parts.filter(Boolean).join(' ');
}

/** A finding as a list entry; a text change's diff follows in a fenced block, never inline. */
function findingEntry(f: Finding): string {
  const diff = typeof f.args.diff === 'string' ? f.args.diff : undefined;
  const message =
    diff === undefined ? renderMessage(f) : renderMessage({ ...f, args: { ...f.args, diff: '' } });
  const text = oneLine(diff === undefined ? message : message.replace(/:\s*(?=\(|$)/, ' '));
  const level = levelOf(f) === 'warning' ? ' (warning)' : '';
  const excepted = mdText(exceptionText(f));
  const head = `- ${ICON[f.verdict] ?? ''} ${f.verdict}${level}: ${mdText(text)} (${mdCode(f.rule)} at ${pointer(f)})${excepted}`;
  return diff === undefined ? head : `${head}\n\n${fenced(diff).replace(/^/gm, '  ')}`;
}

function details(ctx: RenderContext, many: boolean, e: Entry): string[] {
  const findings = orderFindings(e.item.findings);
  const label = `${ICON[e.item.verdict]} ${item(e, htmlCode)}: ${e.item.verdict}, ${findings.length} finding${findings.length === 1 ? '' : 's'}`;
  const lines = ['', `<details><summary>${label}</summary>`, '', ...findings.map(findingEntry)];
  const command = acceptCommand(ctx, many, e.server, e.item);
  if (command) lines.push('', 'Accept it, once reviewed:', '', fenced(command, 'sh'));
  lines.push('', '</details>');
  return lines;
}

function row(ctx: RenderContext, e: Entry): string {
  const [top] = orderFindings(e.item.findings);
  const finding = top ? `${mdText(oneLine(renderMessage(top), 300))} (${mdCode(top.rule)})` : '';
  return `| ${ICON[e.item.verdict]} | ${item(e)} | ${e.item.verdict} | ${finding} | ${where(ctx, e, top)} |`;
}

/**
 * A server's changes: the groups in one line each, then the table, a group's first few rows
 * and a row counting the rest, then the details of each listed change a person must bless.
 */
function serverSection(ctx: RenderContext, result: GateResult, s: ServerResult): string[] {
  const many = result.servers.length > 1;
  const entries = changedItems({ verdict: s.comparison.verdict, servers: [s] });
  const lines: string[] = many ? ['', `#### Server ${mdCode(oneLine(s.name, 300))}`] : [];
  if (entries.length === 0) return many ? [...lines, '', 'No change.'] : lines;
  const groups = groupEntries(entries);
  lines.push(
    '',
    ...groups.map(
      (g) =>
        `- ${ICON[g.verdict]} ${g.verdict}${g.level === 'warning' ? ' (warning)' : ''}: ${mdText(oneLine(groupTitle(g, false), 300))}`,
    ),
  );
  lines.push('', '| | item | verdict | key finding | where |', '|---|---|---|---|---|');
  const shown: Entry[] = [];
  for (const g of groups) {
    const list = listed(g, ctx.verbose);
    shown.push(...list);
    for (const e of list) lines.push(row(ctx, e));
    const rest = g.entries.length - list.length;
    if (rest > 0)
      lines.push(
        `| ${ICON[g.verdict]} | *${mdText(`… and ${rest} more: ${groupTitle(g, false, rest)}`)}* | ${g.verdict} | | |`,
      );
  }
  for (const e of shown.filter((x) => isBlessable(x.item))) lines.push(...details(ctx, many, e));
  const all = serversCut(groups, ctx.verbose).length > 0 ? acceptAllCommand(ctx, many, s.name) : undefined;
  if (all)
    lines.push(
      '',
      'Not every change is listed (`--verbose` lists each). Accept them all at once, once reviewed as a whole:',
      '',
      fenced(all, 'sh'),
    );
  const { checked, rejected } = s.comparison.replay;
  if (rejected.length > 0) {
    lines.push(
      '',
      `**Replay:** ${rejected.length} of ${checked} recorded calls that were valid are now rejected.`,
      '',
    );
    for (const r of rejected) lines.push(`- ${mdCode(callText(ctx, r))}: ${mdText(oneLine(r.error, 500))}`);
  }
  const { unpinned, unread } = s.comparison;
  if (unpinned.length > 0)
    lines.push('', `Not judged: ${unpinned.join(', ')} (not in the lock yet; accept pins them).`);
  if (unread.length > 0)
    lines.push('', `Not judged: ${unread.join(', ')} (pinned, but not read from this source).`);
  return lines;
}

export function renderMarkdown(result: GateResult, ctx: RenderContext): string {
  const many = result.servers.length > 1;
  const lines = [`### Warden gate: ${result.verdict}`, '', summaryLine(summarize(result))];
  const renames = result.renames ?? [];
  if (renames.length > 0) lines.push('');
  for (const r of renames)
    lines.push(
      `- maybe renamed: ${mdCode(oneLine(itemLabel(r.server, many, r.kind, r.from), 300))} → ${mdCode(oneLine(r.to, 300))}`,
    );
  for (const s of result.servers) lines.push(...serverSection(ctx, result, s));
  return `${lines.join('\n')}\n`;
}
