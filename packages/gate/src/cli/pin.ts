import { PIN_USAGE } from './usage.ts';
import fs from 'node:fs';
import { conformanceFindings, renderMessage } from '../compat/index.ts';
import { EXIT, UsageError, type CliIo } from './io.ts';
import { readLock } from './compare.ts';
import { buildLock, writeLock, type AuditEntry } from './lockfile.ts';
import { parseGateArgs, SOURCE_OPTIONS } from './options.ts';
import { describeSource, loadTools } from './sources.ts';

export async function runPin(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [...SOURCE_OPTIONS, 'lock', 'force']);
  if (args.help) {
    io.stdout(PIN_USAGE);
    return EXIT.ok;
  }
  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument "${args.positionals[0]}" (put a server command after --)`);
  const exists = fs.existsSync(args.lock);
  if (exists && !args.force) {
    throw new UsageError(
      `${args.lock} exists; bless changes with "warden-gate accept", or re-pin with --force`,
    );
  }
  const previous = exists ? readLock(args.lock).audit : [];
  const tools = await loadTools(args.source);
  const entry: AuditEntry = {
    at: new Date().toISOString(),
    action: 'pin',
    by: 'hand',
    reason: `pinned ${tools.length} tools from ${describeSource(args.source)}`,
  };
  writeLock(args.lock, buildLock(tools, [...previous, entry]));
  io.stdout(`pinned ${tools.length} tools to ${args.lock}\n`);
  const odd = tools.flatMap((t) => conformanceFindings(t).map((f) => `${t.name}: ${renderMessage(f)}`));
  for (const line of odd.slice(0, 5)) io.stderr(`note: ${line}\n`);
  if (odd.length > 5) io.stderr(`note: ${odd.length - 5} more tools are not valid MCP\n`);
  return EXIT.ok;
}
