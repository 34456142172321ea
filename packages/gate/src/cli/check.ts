import { CHECK_USAGE } from './usage.ts';
import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import { compareLockWithSource } from './compare-source.ts';
import { checkContext } from './contexts.ts';
import {
  assertConfigOptions,
  CONFIG_OPTIONS,
  JUDGE_OPTIONS,
  parseGateArgs,
  SOURCE_OPTIONS,
} from './options.ts';
import { parseFormat, renderFormat } from '../report/formats.ts';
import { exitCode } from '../report/exit-code.ts';
import { parseReports, writeReports } from './reports.ts';

export async function runCheck(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [
    ...SOURCE_OPTIONS,
    ...CONFIG_OPTIONS,
    ...JUDGE_OPTIONS,
    'lock',
    'server',
    'update-lock',
    'reason',
  ]);
  if (args.help) {
    io.stdout(CHECK_USAGE);
    return GATE_EXIT.pass;
  }
  assertConfigOptions(args, false);
  if (args.reason !== undefined && !args.updateLock)
    throw new UsageError('--reason goes with --update-lock (the reason recorded with what it takes in)');
  if (args.updateLock && (args.reason ?? 'x').trim() === '')
    throw new UsageError('--reason must say something: it is recorded with every change taken in');
  const format = parseFormat(args.format, args.json);
  const reports = parseReports(args.reports);
  const compared = args.config
    ? await (await import('./config-check.ts')).compareLockWithConfig(args, io)
    : { ...(await compareLockWithSource(args)), failed: [] };
  const { result } = compared;
  const context = checkContext(args, io);
  writeReports(result, context, reports);
  io.stdout(renderFormat(result, format, context));
  if (args.updateLock) (await import('./update-lock.ts')).updateLock(args, compared, io);
  // A server that could not be read leaves the run undecided: an error, whatever the others say.
  return compared.failed.length > 0 ? GATE_EXIT.error : exitCode(result, args.allowUnknown);
}
