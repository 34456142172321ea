import type { Check, ServerReport } from '../../doctor/index.ts';

export interface Style {
  ok: (s: string) => string;
  bad: (s: string) => string;
  dim: (s: string) => string;
  bold: (s: string) => string;
  fix: (s: string) => string;
}

const plain = (s: string) => s;
const sgr = (code: string) => (s: string) => `\x1b[${code}m${s}\x1b[0m`;

/** Colours only on a terminal, and never when NO_COLOR is set to anything (no-color.org). */
export function styleFor(isTty: boolean, env: Record<string, string | undefined>): Style {
  if (!isTty || (env['NO_COLOR'] ?? '') !== '')
    return { ok: plain, bad: plain, dim: plain, bold: plain, fix: plain };
  return { ok: sgr('32'), bad: sgr('31'), dim: sgr('2'), bold: sgr('1'), fix: sgr('33') };
}

/** One block per server: a line per check with ✓/✗ (· for information), the fix last. */
export function renderHuman(reports: readonly ServerReport[], exitCode: number, style: Style): string {
  const blocks = reports.map((r) => renderServer(r, style));
  const healthy = reports.filter((r) => r.ok).length;
  const summary = `${reports.length} server${reports.length === 1 ? '' : 's'} checked: ${healthy} healthy, ${
    reports.length - healthy
  } not (exit ${exitCode})`;
  return `${blocks.join('\n')}\n${(exitCode === 0 ? style.ok : style.bad)(summary)}\n`;
}

function renderServer(r: ServerReport, style: Style): string {
  const where = r.url ?? r.command ?? '';
  const from = r.source ? style.dim(` (${r.source})`) : '';
  const lines = [`${style.bold(r.name)}  ${where}${from}`];
  for (const check of r.checks) lines.push(...renderCheck(check, style));
  for (const n of r.not_checked) lines.push(`  ${style.dim('·')} not checked: ${n}`);
  if (r.fix) lines.push(`  ${style.fix(r.ok ? 'fix (if this is not what you meant):' : 'fix:')} ${r.fix}`);
  else if (r.ok) lines.push(`  ${style.ok('✓')} nothing to fix`);
  return lines.join('\n') + '\n';
}

function renderCheck(c: Check, style: Style): string[] {
  const mark = c.ok === true ? style.ok('✓') : c.ok === false ? style.bad('✗') : style.dim('·');
  const message = c.ok === false ? style.bad(c.message) : c.message;
  return [`  ${mark} ${message}`, ...(c.details ?? []).map((d) => `      ${d}`)];
}
