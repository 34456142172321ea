import { DIFF_USAGE } from './usage.ts';
import { GATE_EXIT, UsageError, type CliIo } from './io.ts';
import { compareServers, flatten, readServers } from './compare.ts';
import { parseGateArgs } from './options.ts';
import { parseFormat, renderFormat } from './formats.ts';
import { exitCode } from './render.ts';
import { parseReports, writeReports } from './reports.ts';

export async function runDiff(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [
    'calls',
    'strict-descriptions',
    'strict-open-objects',
    'strict-conformance',
    'allow-unknown',
    'json',
    'format',
    'report',
  ]);
  if (args.help) {
    io.stdout(DIFF_USAGE);
    return GATE_EXIT.pass;
  }
  const [oldFile, newFile, extra] = args.positionals;
  if (!oldFile || !newFile || extra !== undefined)
    throw new UsageError('diff takes exactly two files: OLD NEW');
  const format = parseFormat(args.format, args.json);
  const reports = parseReports(args.reports);
  const result = flatten(compareServers(readServers(oldFile), readServers(newFile), args));
  writeReports(result, reports);
  io.stdout(renderFormat(result, format));
  return exitCode(result, args.allowUnknown);
}
