import { DIFF_USAGE } from './usage.ts';
import { GATE_EXIT, UsageError, type CliIo } from './io.ts';
import { compareServers, readServers } from './compare.ts';
import { diffContext } from './context.ts';
import { JUDGE_OPTIONS, parseGateArgs } from './options.ts';
import { parseFormat, renderFormat } from './formats.ts';
import { exitCode } from './exit-code.ts';
import { parseReports, writeReports } from './reports.ts';

export async function runDiff(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, JUDGE_OPTIONS);
  if (args.help) {
    io.stdout(DIFF_USAGE);
    return GATE_EXIT.pass;
  }
  const [oldFile, newFile, extra] = args.positionals;
  if (!oldFile || !newFile || extra !== undefined)
    throw new UsageError('diff takes exactly two files: OLD NEW');
  const format = parseFormat(args.format, args.json);
  const reports = parseReports(args.reports);
  const result = compareServers(readServers(oldFile), readServers(newFile), args);
  const context = diffContext(args, io, oldFile, newFile);
  writeReports(result, context, reports);
  io.stdout(renderFormat(result, format, context));
  return exitCode(result, args.allowUnknown);
}
