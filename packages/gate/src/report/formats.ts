import type { GateResult } from '../lock/compare.ts';
import { itemLevel } from './levels.ts';
import type { RenderContext } from './context.ts';
import { renderGithub } from './github.ts';
import { UsageError } from '../host/io.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { renderText } from './text.ts';
import { renderSarif } from './sarif.ts';

export const FORMATS = ['text', 'json', 'markdown', 'github', 'sarif', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string | undefined, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (!(FORMATS as readonly string[]).includes(value))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${value}"`);
  if (json && value !== 'json') throw new UsageError('--json and --format disagree; give one');
  return value as Format;
}

/**
 * Whether a result passes with nothing a person must read: no finding above info (a compatible
 * change is info unless its rule or the configuration says warning), no recorded call rejected,
 * nothing left unjudged. The seed's contract is silence on compatible: the text and GitHub
 * formats print nothing for such a result unless `verbose` asks for the list.
 */
export function isQuiet(result: GateResult, ctx: RenderContext): boolean {
  if (ctx.verbose) return false;
  return result.servers.every(
    (s) =>
      s.comparison.items.every(
        // An item judged without findings (a library caller's) is quiet by its verdict.
        (i) =>
          i.verdict === 'identical' ||
          (i.findings.length === 0 ? i.verdict === 'compatible' : itemLevel(i) === 'info'),
      ) &&
      s.comparison.replay.rejected.length === 0 &&
      s.comparison.unpinned.length === 0 &&
      s.comparison.unread.length === 0,
  );
}

/**
 * One result in one format; every format orders breaking first and carries the summary. Text
 * and GitHub annotations are silent on a quiet result (isQuiet); the documents a program reads
 * (JSON, SARIF, JUnit) and the Markdown summary are always written, SARIF without its compatible
 * findings unless `verbose` (code scanning would keep each as an alert until it is accepted).
 */
export function renderFormat(result: GateResult, format: Format, ctx: RenderContext): string {
  if ((format === 'text' || format === 'github') && isQuiet(result, ctx)) return '';
  switch (format) {
    case 'json':
      return renderJson(result, ctx);
    case 'markdown':
      return renderMarkdown(result, ctx);
    case 'github':
      return renderGithub(result, ctx);
    case 'sarif':
      return renderSarif(result, ctx);
    case 'junit':
      return renderJunit(result, ctx);
    default:
      return renderText(result, ctx);
  }
}
