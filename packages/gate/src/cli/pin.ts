import { PIN_USAGE } from './usage.ts';
import fs from 'node:fs';
import { conformanceFindings, renderMessage } from '../compat/index.ts';
import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import { readLock } from '../lock/compare.ts';
import { buildLock, DEFAULT_SERVER, lockServer, writeLock, type AuditEntry } from '../lock/lockfile.ts';
import { assertConfigOptions, CONFIG_OPTIONS, parseGateArgs, SOURCE_OPTIONS } from './options.ts';
import { pinnedCounts } from '../lock/pinned.ts';
import { describeSource, loadSnapshot } from '../sources/sources.ts';

export async function runPin(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [...SOURCE_OPTIONS, ...CONFIG_OPTIONS, 'server', 'lock', 'force']);
  if (args.help) {
    io.stdout(PIN_USAGE);
    return GATE_EXIT.pass;
  }
  if (args.config !== undefined) return (await import('./config-pin.ts')).pinConfig(args, io);
  assertConfigOptions(args, true);
  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument "${args.positionals[0]}" (put a server command after --)`);
  const exists = fs.existsSync(args.lock);
  if (exists && !args.force) {
    throw new UsageError(
      `${args.lock} exists; bless changes with "warden-gate accept", or re-pin with --force`,
    );
  }
  const previous = exists ? readLock(args.lock).audit : [];
  const snapshot = await loadSnapshot(args.source);
  const { tools } = snapshot;
  const what = pinnedCounts(snapshot);
  const entry: AuditEntry = {
    at: new Date().toISOString(),
    action: 'pin',
    by: 'hand',
    reason: `pinned ${what} from ${describeSource(args.source)}`,
  };
  writeLock(args.lock, buildLock({ [DEFAULT_SERVER]: lockServer(snapshot) }, [...previous, entry]));
  io.stdout(`pinned ${what} to ${args.lock}\n`);
  const odd = tools.flatMap((t) => conformanceFindings(t).map((f) => `${t.name}: ${renderMessage(f)}`));
  for (const line of odd.slice(0, 5)) io.stderr(`note: ${line}\n`);
  if (odd.length > 5) io.stderr(`note: ${odd.length - 5} more tools are not valid MCP\n`);
  return GATE_EXIT.pass;
}
