import { AdminRefusal } from '../../admin/errors.ts';
import { DB_OPTIONS, openDb, parse } from '../common.ts';
import { EXIT, UsageError, type CliIo } from '../io.ts';
import { leafUsage, type AdminCommand } from './command.ts';
import { INIT_USAGE, runInit } from './init.ts';
import { decisionCommands } from './decisions.ts';
import { mandateCommands } from './mandate.ts';
import { operatorCommands, principalCommands } from './principal.ts';
import { tokenCommands } from './token.ts';

export const ADMIN_GROUPS: Record<string, Record<string, AdminCommand>> = {
  principal: principalCommands,
  operator: operatorCommands,
  token: tokenCommands,
  mandate: mandateCommands,
  decisions: decisionCommands,
};

const HELP = ['--help', '-h'];

function usage(): string {
  const lines = ['Usage: warden admin <group> <command> [args] [--db PATH|URL] [--json]', ''];
  lines.push(`  warden admin ${INIT_USAGE}`);
  for (const [g, cmds] of Object.entries(ADMIN_GROUPS)) {
    for (const c of Object.values(cmds)) lines.push(`  warden admin ${g} ${c.usage}`);
  }
  lines.push(
    '',
    'Run "warden admin <group> --help" or "warden admin <group> <command> --help" for more.',
    'Exit codes: 0 done, 1 refused (the message says why), 2 usage or store error.',
    '',
  );
  return lines.join('\n');
}

function groupUsage(group: string, cmds: Record<string, AdminCommand>): string {
  const lines = [
    `Usage: warden admin ${group} <${Object.keys(cmds).join('|')}> [args] [--db PATH|URL] [--json]`,
    '',
  ];
  for (const c of Object.values(cmds)) lines.push(`  warden admin ${group} ${c.usage}`, `      ${c.summary}`);
  return lines.join('\n') + '\n';
}

/** The human side, headless: what the console does, for scripts and operators. */
export async function runAdmin(argv: string[], io: CliIo): Promise<number> {
  const [group, name, ...rest] = argv;
  if (!group || HELP.includes(group)) {
    io.stdout(usage());
    return group ? EXIT.ok : EXIT.error;
  }
  if (group === 'init') return runInit(argv.slice(1), io);
  const cmds = ADMIN_GROUPS[group];
  if (cmds && (!name || HELP.includes(name))) {
    io.stdout(groupUsage(group, cmds));
    return name ? EXIT.ok : EXIT.error;
  }
  const command = cmds?.[name ?? ''];
  if (!command)
    throw new UsageError(`unknown admin command "${[group, name].filter(Boolean).join(' ')}"\n\n${usage()}`);
  const { values, positionals } = parse(rest, { ...DB_OPTIONS, ...command.options } as typeof DB_OPTIONS);
  if (values.help) {
    io.stdout(leafUsage(`admin ${group} ${name}`, command.usage, command.summary));
    return EXIT.ok;
  }
  // Loaded here, not at the top: --help and usage errors never compile the tools or open a store.
  const { buildRegistry } = await import('../../tools/index.ts');
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
