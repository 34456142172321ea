import { AdminRefusal } from '../../admin/errors.ts';
import type { AdminDeps } from '../../admin/as-principal.ts';
import { buildRegistry } from '../../tools/index.ts';
import { DB_OPTIONS, openDb, parse } from '../common.ts';
import { EXIT, UsageError, type CliIo } from '../io.ts';
import { decisionCommands } from './decisions.ts';
import { mandateCommands } from './mandate.ts';
import { operatorCommands, principalCommands } from './principal.ts';
import { tokenCommands } from './token.ts';

/** One admin subcommand: parsed values and positionals in, exit code out. */
export type AdminCommand = {
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  usage: string;
  run: (
    deps: AdminDeps,
    args: { positionals: string[]; values: Record<string, string | boolean | string[] | undefined> },
    io: CliIo,
  ) => Promise<number>;
};

const groups: Record<string, Record<string, AdminCommand>> = {
  principal: principalCommands,
  operator: operatorCommands,
  token: tokenCommands,
  mandate: mandateCommands,
  decisions: decisionCommands,
};

function usage(): string {
  const lines = ['Usage: warden admin <group> <command> [args] [--db PATH|URL] [--json]', ''];
  for (const [g, cmds] of Object.entries(groups)) {
    for (const c of Object.values(cmds)) lines.push(`  warden admin ${g} ${c.usage}`);
  }
  lines.push('', 'Exit codes: 0 done, 1 refused (the message says why), 2 usage or store error.', '');
  return lines.join('\n');
}

/** The human side, headless: what the console does, for scripts and operators. */
export async function runAdmin(argv: string[], io: CliIo): Promise<number> {
  const [group, name, ...rest] = argv;
  if (!group || group === '--help' || group === '-h') {
    io.stdout(usage());
    return group ? EXIT.ok : EXIT.error;
  }
  const command = groups[group]?.[name ?? ''];
  if (!command)
    throw new UsageError(`unknown admin command "${[group, name].filter(Boolean).join(' ')}"\n\n${usage()}`);
  const { values, positionals } = parse(rest, { ...DB_OPTIONS, ...command.options } as typeof DB_OPTIONS);
  if (values.help) {
    io.stdout(`Usage: warden admin ${group} ${command.usage}\n`);
    return EXIT.ok;
  }
  const store = await openDb(values.db, io);
  try {
    return await command.run({ store, registry: buildRegistry() }, { positionals, values }, io);
  } catch (err) {
    if (err instanceof AdminRefusal) {
      const message = err.next ? `${err.message} ${err.next}` : err.message;
      if (values.json) io.stdout(JSON.stringify({ refused: { code: err.code, message } }) + '\n');
      io.stderr(`warden admin: refused (${err.code}): ${message}\n`);
      return EXIT.failed;
    }
    throw err;
  } finally {
    await store.close();
  }
}

/** The positional at `i`, or a usage error naming what is missing. */
export function positional(args: { positionals: string[] }, i: number, what: string): string {
  const v = args.positionals[i];
  if (v === undefined) throw new UsageError(`missing ${what}`);
  return v;
}

export function str(values: Record<string, unknown>, key: string): string | undefined {
  const v = values[key];
  return typeof v === 'string' ? v : undefined;
}
