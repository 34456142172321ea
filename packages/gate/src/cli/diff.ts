import { DIFF_USAGE } from './usage.ts';
import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import { compareServers, readServers } from '../lock/compare.ts';
import { diffContext } from './contexts.ts';
import { JUDGE_OPTIONS, parseGateArgs } from './options.ts';
import { parseFormat, renderFormat } from '../report/formats.ts';
import { decide, readConfigFor } from './levels.ts';
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
  // No lockfile to sit beside: the configuration is read from the working directory.
  const config = readConfigFor(args, '.');
  const [before, after] = [readServers(oldFile), readServers(newFile)];
  const { result, code, report } = decide(compareServers(before.servers, after.servers, args), args, config);
  const context = diffContext(
    args,
    io,
    { file: oldFile, lock: before.lock && !before.revision },
    { file: newFile, lock: after.lock && !after.revision },
  );
  writeReports(result, context, reports);
  io.stdout(renderFormat(result, format, context));
  report(io, format);
  return code;
}
