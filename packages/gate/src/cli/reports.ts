import fs from 'node:fs';
import path from 'node:path';
import type { GateResult } from '../lock/compare.ts';
import type { RenderContext } from '../report/context.ts';
import { FORMATS, renderFormat, type Format } from '../report/formats.ts';
import { UsageError } from '../host/io.ts';

/** One `--report FORMAT=FILE`: the same result, rendered once more, into a file. */
export interface Report {
  format: Format;
  file: string;
}

/**
 * Reads every `--report FORMAT=FILE` before the comparison runs, so a typo or a file that cannot
 * be written stops the command before it connects to a server, not after.
 */
export function parseReports(values: readonly string[]): Report[] {
  const reports: Report[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq < 0) throw new UsageError(`--report must look like FORMAT=FILE, got "${value}"`);
    const format = value.slice(0, eq);
    const file = value.slice(eq + 1);
    if (!(FORMATS as readonly string[]).includes(format))
      throw new UsageError(`--report format must be one of ${FORMATS.join(', ')}, got "${format}"`);
    if (file === '') throw new UsageError(`--report ${format}= names no file`);
    const key = path.resolve(file);
    if (seen.has(key)) throw new UsageError(`--report names ${file} twice`);
    seen.add(key);
    assertWritable(file);
    reports.push({ format: format as Format, file });
  }
  return reports;
}

/** A report can be written if its folder takes new files (the rename) and the name is no folder. */
function assertWritable(file: string): void {
  let why: string | undefined;
  try {
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) why = 'it is a directory';
    else fs.accessSync(path.dirname(path.resolve(file)), fs.constants.W_OK);
  } catch (err) {
    why = errorCode(err);
  }
  if (why !== undefined) throw new UsageError(`--report cannot write ${file}: ${why}`);
}

/**
 * Writes every report, each atomically (a temporary file beside it, then a rename): a reader
 * never sees half a report, and if one cannot be written none is replaced.
 */
export function writeReports(result: GateResult, ctx: RenderContext, reports: readonly Report[]): void {
  const staged: { tmp: string; file: string }[] = [];
  try {
    for (const { format, file } of reports) {
      const dir = path.dirname(path.resolve(file));
      const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${staged.length}.tmp`);
      try {
        fs.writeFileSync(tmp, renderFormat(result, format, ctx), { mode: 0o644 });
      } catch (err) {
        throw new UsageError(`--report cannot write ${file}: ${errorCode(err)}`);
      }
      staged.push({ tmp, file });
    }
    for (const { tmp, file } of staged) {
      try {
        fs.renameSync(tmp, file);
      } catch (err) {
        throw new UsageError(`--report cannot write ${file}: ${errorCode(err)}`);
      }
    }
  } finally {
    for (const { tmp } of staged) fs.rmSync(tmp, { force: true });
  }
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
