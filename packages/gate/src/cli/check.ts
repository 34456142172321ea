import { CHECK_USAGE } from './usage.ts';
import { GATE_EXIT, type CliIo } from '../host/io.ts';
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
  ]);
  if (args.help) {
    io.stdout(CHECK_USAGE);
    return GATE_EXIT.pass;
  }
  assertConfigOptions(args, false);
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
  // A server that could not be read leaves the run undecided: an error, whatever the others say.
  return compared.failed.length > 0 ? GATE_EXIT.error : code;
}
