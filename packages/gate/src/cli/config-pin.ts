// `pin --config`: one lock for every server of a client configuration, each with its launch.
import fs from 'node:fs';
import { compareLaunch, conformanceFindings, renderMessage } from '../compat/index.ts';
import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import { readLock } from '../lock/compare.ts';
import { assertConfigAlone } from './config-check.ts';
import {
  noteSkipped,
  readConfiguration,
  readConfiguredServers,
  type ServerRead,
} from '../sources/configs.ts';
import { buildLock, lockServer, writeLock, type AuditEntry, type ServerLock } from '../lock/lockfile.ts';
import type { GateArgs } from './options.ts';
import { pinnedCounts } from '../lock/pinned.ts';
import { setMember } from '../compat/own.ts';

/**
 * Pins every server the configuration starts (with `--server`, that one, keeping the lock's
 * others). A server that cannot be read is named with its cause and left out; the others are
 * pinned all the same, and the exit code is an error.
 */
export async function pinConfig(args: GateArgs, io: CliIo): Promise<number> {
  const file = assertConfigAlone(args);
  const exists = fs.existsSync(args.lock);
  if (exists && !args.force)
    throw new UsageError(
      `${args.lock} exists; bless changes with "warden-gate accept", or re-pin with --force`,
    );
  const previous = exists ? readLock(args.lock) : undefined;
  const { label, servers } = readConfiguration(file, args.server, args.inputs, io.env);
  noteSkipped(servers, io.stderr);
  const reads = await readConfiguredServers(servers, {
    env: io.env,
    offline: args.offline,
    timeoutMs: args.source.timeoutMs,
  });

  const pinned: Record<string, ServerLock> = {};
  if (args.server !== undefined && previous)
    for (const [name, server] of Object.entries(previous.servers))
      if (name !== args.server) setMember(pinned, name, server);
  const audit: AuditEntry[] = [...(previous?.audit ?? [])];
  const at = new Date().toISOString();
  let failed = 0;
  for (const read of reads) {
    const { name } = read.server;
    if (!read.snapshot) {
      failed += 1;
      io.stderr(`${name}: not pinned: ${read.error ?? 'nothing was read'}\n`);
      continue;
    }
    const what = pinnedCounts(read.snapshot);
    setMember(pinned, name, lockServer(read.snapshot, read.launch));
    audit.push({ at, action: 'pin', by: 'hand', server: name, reason: `pinned ${what} from ${label}` });
    io.stdout(`pinned ${name}: ${what}\n`);
    report(read, io);
  }
  const count = reads.length - failed;
  if (count === 0) {
    io.stderr(`nothing was pinned; ${args.lock} is unchanged\n`);
    return GATE_EXIT.error;
  }
  writeLock(args.lock, buildLock(pinned, audit));
  io.stdout(`wrote ${count} server${count === 1 ? '' : 's'} to ${args.lock}\n`);
  return failed > 0 ? GATE_EXIT.error : GATE_EXIT.pass;
}

/** The launch's findings (an unpinned package), and notes on tools that are not valid MCP. */
function report(read: ServerRead, io: CliIo): void {
  const { name } = read.server;
  const item = compareLaunch(undefined, read.launch, read.unresolved ? { unresolved: read.unresolved } : {});
  for (const f of item.findings)
    io.stdout(`${name}: launch: ${f.verdict} — ${renderMessage(f)} (${f.rule})\n`);
  const pkg = read.launch.package;
  if (pkg && read.unresolved && item.findings.length === 0)
    io.stderr(`note: ${name}: the version of ${pkg.name} is recorded as null: ${read.unresolved}\n`);
  const odd = (read.snapshot?.tools ?? []).flatMap((t) =>
    conformanceFindings(t).map((f) => `${t.name}: ${renderMessage(f)}`),
  );
  for (const line of odd.slice(0, 5)) io.stderr(`note: ${name}: ${line}\n`);
  if (odd.length > 5) io.stderr(`note: ${name}: ${odd.length - 5} more tools are not valid MCP\n`);
}
