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
import { decide, readConfigFor } from './levels.ts';
import path from 'node:path';
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
  const config = readConfigFor(args, path.dirname(args.lock));
  const compared = args.config
    ? await (await import('./config-check.ts')).compareLockWithConfig(args, io)
    : { ...(await compareLockWithSource(args)), failed: [] };
  const { result, code, report } = decide(compared.result, args, config);
  const context = checkContext(args, io);
  writeReports(result, context, reports);
  io.stdout(renderFormat(result, format, context));
  report(io, format);
  if (args.updateLock) {
    // The lock takes in only what passed: a change the configuration's levels fail (a warning
    // under --fail-on warning, an expired exception) stays out, as a breaking one does.
    const { updateLock, notUpdated } = await import('./update-lock.ts');
    if (code === GATE_EXIT.pass || result.verdict !== 'compatible')
      updateLock(args, { ...compared, result }, io);
    else notUpdated(args, io, `the run fails (exit ${code}) by the levels of its findings`);
  }
  // A server that could not be read leaves the run undecided: an error, whatever the others say.
  return compared.failed.length > 0 ? GATE_EXIT.error : code;
}
