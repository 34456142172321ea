import type { GateResult } from '../lock/compare.ts';
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

/** One result in one format; every format orders breaking first and carries the summary. */
export function renderFormat(result: GateResult, format: Format, ctx: RenderContext): string {
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
