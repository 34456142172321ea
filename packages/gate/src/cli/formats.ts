import { RULES, jsonText, renderMessage, type Finding, type ManifestComparison } from '../compat/index.ts';
import { UsageError } from './io.ts';
import { renderJson, renderText } from './render.ts';

export const FORMATS = ['text', 'json', 'markdown', 'github', 'sarif', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string | undefined, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (!(FORMATS as readonly string[]).includes(value))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${value}"`);
  if (json && value !== 'json') throw new UsageError('--json and --format disagree; give one');
  return value as Format;
}

const VERSION = '0.1.0';

interface Item {
  tool: string;
  verdict: string;
  finding?: Finding;
}

/** One item per finding that is not compatible, or per tool when a tool has none (e.g. compatible). */
function changed(result: ManifestComparison): { name: string; verdict: string; findings: Finding[] }[] {
  return result.tools.filter((t) => t.verdict !== 'identical');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function markdown(result: ManifestComparison): string {
  const tools = changed(result);
  const icon: Record<string, string> = { breaking: '❌', unknown: '❓', compatible: '✅' };
  const lines = [`### Warden gate: ${result.verdict}`, ''];
  if (tools.length === 0) return `${lines.join('\n')}No tool changed.\n`;
  lines.push('| tool | verdict | finding | rule | where |', '|---|---|---|---|---|');
  const cell = (s: string): string => oneLine(s).replace(/\|/g, '\\|');
  for (const t of tools) {
    for (const f of t.findings) {
      lines.push(
        `| \`${cell(t.name)}\` | ${icon[f.verdict] ?? ''} ${f.verdict} | ${cell(renderMessage(f))} | \`${f.rule}\` | \`${cell(f.pointer || '/')}\` |`,
      );
    }
  }
  const { checked, rejected } = result.replay;
  if (rejected.length > 0)
    lines.push('', `Replay: ${rejected.length} of ${checked} recorded calls are now rejected.`);
  return `${lines.join('\n')}\n`;
}

/** GitHub workflow commands: an annotation per finding that is not compatible. */
function github(result: ManifestComparison): string {
  const esc = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string): string => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const out: string[] = [];
  for (const t of changed(result)) {
    for (const f of t.findings) {
      const level = f.verdict === 'breaking' ? 'error' : f.verdict === 'unknown' ? 'warning' : 'notice';
      out.push(
        `::${level} title=${prop(`warden gate: ${t.name} ${f.verdict} (${f.rule})`)}::${esc(`${t.name}: ${renderMessage(f)} at ${f.pointer || '/'}`)}`,
      );
    }
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

/** SARIF 2.1.0: one result per finding, located logically at the tool and the pointer inside it. */
function sarif(result: ManifestComparison): string {
  const items: Item[] = changed(result).flatMap((t) =>
    t.findings.map((f) => ({ tool: t.name, verdict: f.verdict, finding: f })),
  );
  const used = [...new Set(items.map((i) => i.finding?.rule as string))].sort();
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'warden-gate',
            version: VERSION,
            rules: used.map((id) => ({
              id,
              shortDescription: { text: RULES.find((r) => r.id === id)?.message ?? id },
            })),
          },
        },
        results: items.map((i) => {
          const f = i.finding as Finding;
          return {
            ruleId: f.rule,
            ruleIndex: used.indexOf(f.rule),
            level: f.verdict === 'breaking' ? 'error' : f.verdict === 'unknown' ? 'warning' : 'note',
            message: { text: `${i.tool}: ${oneLine(renderMessage(f))}` },
            locations: [
              {
                logicalLocations: [
                  { name: i.tool, fullyQualifiedName: `${i.tool}${f.pointer}`, kind: 'function' },
                ],
              },
            ],
            properties: { tool: i.tool, verdict: f.verdict, pointer: f.pointer, witness: f.witness ?? null },
          };
        }),
      },
    ],
  };
  return `${jsonText(doc, 2)}\n`;
}

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

/** JUnit XML: a test case per changed tool; breaking is a failure, unknown an error. */
function junit(result: ManifestComparison): string {
  const tools = changed(result);
  const failures = tools.filter((t) => t.verdict === 'breaking').length;
  const errors = tools.filter((t) => t.verdict === 'unknown').length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="warden gate" tests="${tools.length}" failures="${failures}" errors="${errors}">`,
    `  <testsuite name="warden gate" tests="${tools.length}" failures="${failures}" errors="${errors}">`,
  ];
  for (const t of tools) {
    lines.push(`    <testcase classname="warden.gate" name="${xml(t.name)}">`);
    const bad = t.findings.filter((f) => f.verdict !== 'compatible');
    const body = t.findings
      .map((f) => `${f.verdict} ${f.rule} at ${f.pointer || '/'}: ${oneLine(renderMessage(f))}`)
      .join('\n');
    const top = bad.find((f) => f.verdict === 'breaking') ?? bad[0];
    if (top) {
      const tag = t.verdict === 'breaking' ? 'failure' : 'error';
      lines.push(
        `      <${tag} type="${xml(top.rule)}" message="${xml(oneLine(renderMessage(top)))}">${xml(body)}</${tag}>`,
      );
    } else if (body) lines.push(`      <system-out>${xml(body)}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

export function renderFormat(result: ManifestComparison, format: Format): string {
  switch (format) {
    case 'json':
      return renderJson(result);
    case 'markdown':
      return markdown(result);
    case 'github':
      return github(result);
    case 'sarif':
      return sarif(result);
    case 'junit':
      return junit(result);
    default:
      return renderText(result);
  }
}
