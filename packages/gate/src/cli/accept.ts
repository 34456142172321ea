import { ACCEPT_USAGE } from './usage.ts';
import { worstVerdict, type ItemReport, type Launch, type ServerSnapshot } from '../compat/index.ts';
import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import { itemLabel } from '../lock/compare.ts';
import { compareLockWithSource } from './compare-source.ts';
import { acceptEntry, pickServer, writeLock } from '../lock/lockfile.ts';
import { applyItem, pinUnpinned } from '../lock/take.ts';
import { parseGateArgs, SOURCE_OPTIONS, type GateArgs } from './options.ts';
import { exitCode } from '../report/exit-code.ts';
import { acceptArgument, matchesHash, parseSelection } from '../lock/selection.ts';

export async function runAccept(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [
    ...SOURCE_OPTIONS,
    'lock',
    'tool',
    'item',
    'all',
    'server',
    'reason',
    'calls',
    'strict-descriptions',
    'strict-open-objects',
    'config',
    'input',
    'offline',
  ]);
  if (args.help) {
    io.stdout(ACCEPT_USAGE);
    return GATE_EXIT.pass;
  }
  if (args.all && (args.tools.length > 0 || args.items.length > 0))
    throw new UsageError('--all accepts every pending change: name none with --tool or --item');
  if (args.all && (args.reason ?? '').trim() === '')
    throw new UsageError('--all needs --reason TEXT: one reason, recorded with every change it accepts');
  const { lock, live, result, launches } = await compared(args, io);
  const [serverResult, ...others] = result.servers;
  if (others.length > 0)
    throw new UsageError(
      `the configuration starts ${result.servers.length} servers; name the one to accept into with --server`,
    );
  if (!serverResult) return GATE_EXIT.pass;
  const name = serverResult.name;
  const pinned = pickServer(lock, name);
  const liveSnapshot = live.get(name) as ServerSnapshot;
  const changed = serverResult.comparison.items.filter((t) => t.verdict !== 'identical');
  const selections = [
    ...args.tools.map((t) => parseSelection(t, 'tool')),
    ...args.items.map((i) => parseSelection(i)),
  ];
  for (const s of selections) {
    const report = changed.find((t) => t.kind === s.kind && t.name === s.name);
    if (!report) throw new UsageError(`${s.kind} "${s.name}" has no pending change to accept`);
    if (!matchesHash(report, s.hash)) {
      throw new UsageError(
        `${s.kind} "${s.name}" changed again: live hash is ${report.newHash ?? 'removed'}, not the reviewed ${s.hash}; review it again`,
      );
    }
  }
  const now = new Date().toISOString();
  const pending: ItemReport[] = [];
  const lines: string[] = [];
  const label = (r: ItemReport) => itemLabel(name, false, r.kind, r.name);
  for (const report of changed) {
    const byHand = args.all || selections.some((s) => s.kind === report.kind && s.name === report.name);
    if (!byHand && report.verdict !== 'compatible') {
      pending.push(report);
      lines.push(
        `${label(report)}: ${report.verdict}, not accepted (accept it with ${acceptArgument(report)})`,
      );
      continue;
    }
    applyItem(pinned, report, liveSnapshot, launches.get(name));
    const entry = acceptEntry(now, report, {
      byHand,
      // The reason is the person's, for what they named (or for everything, with --all).
      ...(args.reason !== undefined && byHand ? { reason: args.reason } : {}),
      ...(Object.keys(lock.servers).length > 1 ? { server: name } : {}),
    });
    lock.audit.push(entry);
    lines.push(
      `${label(report)}: ${report.verdict} change accepted ${byHand ? 'by hand' : 'automatically'} (${report.oldHash ?? 'new'} -> ${report.newHash ?? 'removed'})`,
    );
  }
  // Surfaces an older lock never pinned start being pinned now: there is nothing to compare them with.
  const unpinned = serverResult.comparison.unpinned;
  if (pinUnpinned(lock, pinned, unpinned, liveSnapshot, now))
    lines.push(`pinned ${unpinned.join(', ')}, which the lock did not hold before`);
  if (pending.length < changed.length || unpinned.length > 0) writeLock(args.lock, lock);
  if (lines.length > 0) io.stdout(`${lines.join('\n')}\n`);
  const left = {
    verdict: worstVerdict(pending.map((t) => t.verdict)),
    servers: [{ name, comparison: { ...serverResult.comparison, items: pending } }],
  };
  return exitCode(left, false);
}

/** The comparison accept works on: one source, or one server of a client configuration. */
async function compared(args: GateArgs, io: CliIo) {
  if (args.config === undefined)
    return { ...(await compareLockWithSource(args)), launches: new Map<string, Launch>() };
  // Loaded here: the accept command's text is rendered by every report, and must not bring
  // the configuration reader and the MCP client with it.
  const { compareLockWithConfig } = await import('./config-check.ts');
  const c = await compareLockWithConfig(args, io);
  if (c.failed.length > 0)
    throw new UsageError(
      `${c.failed.join(', ')} could not be read; nothing to accept from ${c.failed.length > 1 ? 'them' : 'it'}`,
    );
  return c;
}
