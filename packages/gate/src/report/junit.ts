// JUnit XML: a test case per changed item, breaking first; breaking is a failure, unknown an
// error, and the summary line is the suite's output.
import { levelOf, renderMessage } from '../compat/index.ts';
import { exceptionText, itemLevel } from './levels.ts';
import { acceptCommand } from './accept-command.ts';
import { itemLabel, type GateResult } from '../lock/compare.ts';
import type { RenderContext } from './context.ts';
import { changedItems, orderFindings } from '../lock/order.ts';
import { oneLine } from './text.ts';
import { summarize, summaryLine } from './summary.ts';

function xml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .split('')
    .filter((c) => c >= ' ' || c === '\n' || c === '\t' || c === '\r') // XML 1.0 forbids other control characters
    .join('');
}

export function renderJunit(result: GateResult, ctx: RenderContext): string {
  const many = result.servers.length > 1;
  const entries = changedItems(result);
  const fails = (e: (typeof entries)[number]): boolean => itemLevel(e.item) === 'error';
  const failures = entries.filter((e) => e.item.verdict === 'breaking' && fails(e)).length;
  const errors = entries.filter((e) => e.item.verdict === 'unknown' && fails(e)).length;
  const counts = `tests="${entries.length}" failures="${failures}" errors="${errors}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="warden gate" ${counts}>`,
    `  <testsuite name="warden gate" ${counts}>`,
  ];
  for (const { server, item } of entries) {
    const label = oneLine(itemLabel(server, many, item.kind, item.name), 500);
    lines.push(`    <testcase classname="warden.gate" name="${xml(label)}">`);
    const findings = orderFindings(item.findings);
    const body = findings.map(
      (f) =>
        `${f.verdict}${levelOf(f) === 'warning' ? ' (warning)' : ''} ${f.rule} at ${f.pointer || '/'}: ${oneLine(renderMessage(f))}${exceptionText(f)}`,
    );
    const accept = acceptCommand(ctx, many, server, item);
    if (accept) body.push(`accept: ${accept}`);
    const [top] = findings;
    // A failure is what fails at the default level: a change a team lowered is reported, not failed.
    if (top && item.verdict !== 'compatible' && itemLevel(item) === 'error') {
      const tag = item.verdict === 'breaking' ? 'failure' : 'error';
      lines.push(
        `      <${tag} type="${xml(top.rule)}" message="${xml(oneLine(renderMessage(top), 1000))}">${xml(body.join('\n'))}</${tag}>`,
      );
    } else if (body.length > 0) lines.push(`      <system-out>${xml(body.join('\n'))}</system-out>`);
    lines.push('    </testcase>');
  }
  const notes = (result.renames ?? []).map(
    (r) =>
      `maybe renamed: ${oneLine(itemLabel(r.server, many, r.kind, r.from), 500)} → ${oneLine(r.to, 500)}`,
  );
  lines.push(`    <system-out>${xml([...notes, summaryLine(summarize(result))].join('\n'))}</system-out>`);
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}
