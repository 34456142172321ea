import { CHECK_USAGE } from './usage.ts';
import { EXIT, type CliIo } from './io.ts';
import { compareLockWithSource, flatten } from './compare.ts';
import { parseGateArgs, SOURCE_OPTIONS } from './options.ts';
import { parseFormat, renderFormat } from './formats.ts';
import { exitCode } from './render.ts';
import { parseReports, writeReports } from './reports.ts';

export async function runCheck(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [
    ...SOURCE_OPTIONS,
    'lock',
    'calls',
    'strict-descriptions',
    'strict-open-objects',
    'strict-conformance',
    'allow-unknown',
    'json',
    'format',
    'report',
    'server',
  ]);
  if (args.help) {
    io.stdout(CHECK_USAGE);
    return EXIT.ok;
  }
  const format = parseFormat(args.format, args.json);
  const reports = parseReports(args.reports);
  const result = flatten((await compareLockWithSource(args)).result);
  writeReports(result, reports);
  io.stdout(renderFormat(result, format));
  return exitCode(result, args.allowUnknown);
}
