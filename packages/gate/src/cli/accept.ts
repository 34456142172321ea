import { ACCEPT_USAGE } from './usage.ts';
import { worstVerdict, type Tool, type ToolReport } from '../compat/index.ts';
import { EXIT, UsageError, type CliIo } from './io.ts';
import { compareLockWithSource } from './compare.ts';
import { lockTool, writeLock, type AuditEntry, type Lock } from './lockfile.ts';
import { parseGateArgs, SOURCE_OPTIONS } from './options.ts';
import { exitCode } from './render.ts';

interface Selection {
  name: string;
  hash?: string;
}

function parseSelection(value: string): Selection {
  const at = value.indexOf('@');
  if (at < 0) return { name: value };
  const hash = value.slice(at + 1);
  if (!/^(sha256:)?[0-9a-f]{8,64}$/.test(hash) && hash !== 'removed')
    throw new UsageError(`--tool ${value}: expected NAME@sha256:HEX or NAME@removed`);
  return { name: value.slice(0, at), hash: hash === 'removed' ? hash : hash.replace(/^sha256:/, '') };
}

function matchesHash(report: ToolReport, hash: string | undefined): boolean {
  if (hash === undefined) return true;
  if (report.newHash === null) return hash === 'removed';
  return report.newHash.replace(/^sha256:/, '').startsWith(hash);
}

function apply(lock: Lock, report: ToolReport, defs: Map<string, Tool>): void {
  const def = defs.get(report.name);
  if (report.change === 'removed' || !def) delete lock.tools[report.name];
  // defineProperty, not assignment: a tool may be named "__proto__".
  else
    Object.defineProperty(lock.tools, report.name, {
      value: lockTool(def),
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

export async function runAccept(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [
    ...SOURCE_OPTIONS,
    'lock',
    'tool',
    'reason',
    'calls',
    'strict-descriptions',
    'strict-open-objects',
  ]);
  if (args.help) {
    io.stdout(ACCEPT_USAGE);
    return EXIT.ok;
  }
  const { lock, live: liveTools, result } = await compareLockWithSource(args);
  const changed = result.tools.filter((t) => t.verdict !== 'identical');
  const selections = args.tools.map(parseSelection);
  for (const s of selections) {
    const report = changed.find((t) => t.name === s.name);
    if (!report) throw new UsageError(`tool "${s.name}" has no pending change to accept`);
    if (!matchesHash(report, s.hash)) {
      throw new UsageError(
        `tool "${s.name}" changed again: live hash is ${report.newHash ?? 'removed'}, not the reviewed ${s.hash}; review it again`,
      );
    }
  }
  const defs = new Map(liveTools.map((t) => [t.name, t]));
  const now = new Date().toISOString();
  const pending: ToolReport[] = [];
  const lines: string[] = [];
  for (const report of changed) {
    const byHand = selections.some((s) => s.name === report.name);
    if (!byHand && report.verdict !== 'compatible') {
      pending.push(report);
      lines.push(
        `${report.name}: ${report.verdict}, not accepted (name it with --tool ${report.name}@${report.newHash ?? 'removed'})`,
      );
      continue;
    }
    apply(lock, report, defs);
    const entry: AuditEntry = {
      at: now,
      action: 'accept',
      tool: report.name,
      change: report.change === 'unchanged' ? 'changed' : report.change,
      verdict: report.verdict,
      oldHash: report.oldHash,
      newHash: report.newHash,
      by: byHand ? 'hand' : 'auto',
      ...(args.reason && byHand ? { reason: args.reason } : {}),
    };
    lock.audit.push(entry);
    lines.push(
      `${report.name}: ${report.verdict} change accepted ${byHand ? 'by hand' : 'automatically'} (${report.oldHash ?? 'new'} -> ${report.newHash ?? 'removed'})`,
    );
  }
  if (pending.length < changed.length) writeLock(args.lock, lock);
  if (lines.length > 0) io.stdout(`${lines.join('\n')}\n`);
  return exitCode({ ...result, tools: pending, verdict: worstVerdict(pending.map((t) => t.verdict)) }, false);
}
