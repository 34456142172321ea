import type { AdminDeps } from '../../admin/as-principal.ts';
import { UsageError, type CliIo } from '../io.ts';

/** One admin subcommand: parsed values and positionals in, exit code out. */
export type AdminCommand = {
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  usage: string;
  /** One line: what it does. Shown by --help and in the README's command table. */
  summary: string;
  run: (
    deps: AdminDeps,
    args: { positionals: string[]; values: Record<string, string | boolean | string[] | undefined> },
    io: CliIo,
  ) => Promise<number>;
};

/** A leaf's --help: its usage line, what it does, and the options every admin command takes. */
export function leafUsage(path: string, usageLine: string, summary: string): string {
  return (
    `Usage: warden ${path} ${usageLine.replace(/^\S+\s*/, '')}`.trimEnd() +
    `

${summary}.

  --db PATH|URL   the store (else WARDEN_DB, else .warden/warden.db); it must exist already
  --json          print JSON
`
  );
}

/** The positional at `i`, or a usage error naming what is missing. */
export function positional(args: { positionals: string[] }, i: number, what: string): string {
  const v = args.positionals[i];
  if (v === undefined) throw new UsageError(`missing ${what}`);
  return v;
}

/** A string option's value, or undefined when absent or given as a flag. */
export function str(values: Record<string, unknown>, key: string): string | undefined {
  const v = values[key];
  return typeof v === 'string' ? v : undefined;
}
