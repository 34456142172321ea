// An expired exception of the gate's configuration, as a GitHub annotation on the line of the
// configuration that grants it: the fix (renew the date or remove the exception) is there.
import fs from 'node:fs';
import { relativePath } from './context.ts';
import { command } from './github.ts';

/** The line of `file` holding the exception's expiry date (1 when it cannot be found). */
function lineOf(file: string, expires: string): number {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return 1;
  }
  const at = text.split('\n').findIndex((l) => l.includes('"expires"') && l.includes(expires));
  return at < 0 ? 1 : at + 1;
}

export function expiredAnnotation(x: { expires: string }, file: string | undefined, line: string): string {
  const at = file ? { file: relativePath(file), line: lineOf(file, x.expires) } : undefined;
  return `${command('error', 'warden gate: exception expired', line, at)}\n`;
}
