import { EXIT, type CliIo } from '../io.ts';
import { compareLockWithSource } from './compare.ts';
import { parseGateArgs, SOURCE_OPTIONS } from './options.ts';
import { parseFormat, renderFormat } from './formats.ts';
import { exitCode } from './render.ts';

export const CHECK_USAGE = `Usage: warden gate check (--url URL [--header "K: V"]... | --manifest FILE | -- COMMAND ARGS...)
                         [--lock FILE] [--calls calls.jsonl] [--strict-descriptions] [--strict-open-objects]
                         [--strict-conformance] [--allow-unknown] [--json | --format text|json|markdown|github|sarif|junit]

Compares the live manifest with the lock. Exit 0 identical or compatible, 1 breaking,
2 unknown or error (fails closed; --allow-unknown lets unknown pass, never a disagreement).
A changed tool that is not valid MCP is compared as served and reported (tool-not-conformant);
--strict-conformance makes any such tool unknown, changed or not.
`;

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
  ]);
  if (args.help) {
    io.stdout(CHECK_USAGE);
    return EXIT.ok;
  }
  const { result } = await compareLockWithSource(args);
  io.stdout(renderFormat(result, parseFormat(args.format, args.json)));
  return exitCode(result, args.allowUnknown);
}
