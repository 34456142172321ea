import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  acceptEntry,
  buildLock,
  compareSnapshots,
  DEFAULT_SERVER,
  loadSnapshot,
  lockServer,
  lockSnapshot,
  pickServer,
  readLock,
  renderText,
  worstVerdict,
  writeLock,
  type AuditEntry,
  type ItemReport,
  type ServerComparison,
  type ServerSnapshot,
} from '@warden-mcp/gate';
import { addPrincipal } from '../../admin/principals.ts';
import { issueAgentToken } from '../../admin/tokens.ts';
import { silentLogger, startHttpServer } from '../../server/index.ts';
import { openStore } from '../../store/index.ts';
import { buildRegistry } from '../../tools/index.ts';
import { GATE_EXIT } from '@warden-mcp/gate/io';
import { UsageError, type CliIo } from '../io.ts';
import { BLESS_COMMAND, CLUB_LOCK_DIR, CLUB_USAGE } from './club-usage.ts';

/** The tiers whose views of the club are locked, and the scopes their test agents hold. */
export const CLUB_TIERS = {
  anonymous: undefined,
  candidate: 'profile:write,evidence:write,inbox,mandate:read',
  member: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
} as const;
export type ClubTier = keyof typeof CLUB_TIERS;
const TIERS = Object.keys(CLUB_TIERS) as ClubTier[];

/** Everything the club serves each tier: identity, instructions, tools, resources and the skill. */
export type ClubSnapshots = Record<ClubTier, ServerSnapshot>;

export { BLESS_COMMAND, CLUB_LOCK_DIR };

export function clubLockFile(tier: ClubTier, dir = CLUB_LOCK_DIR): string {
  return path.join(dir, `club-${tier}.lock.json`);
}

/**
 * What Warden's club serves each tier, read the way any agent reads it and the way the gate
 * pins any server: a real server on loopback HTTP over a fresh store, every surface read
 * through the official MCP client (the skill's files with their texts, kept only when their
 * bytes match the digests the skill lists).
 */
export async function servedClub(): Promise<ClubSnapshots> {
  const dir = mkdtempSync(path.join(tmpdir(), 'warden-club-lock-'));
  const store = await openStore(path.join(dir, 'club.db'));
  const registry = buildRegistry();
  const server = await startHttpServer({ store, registry, logger: silentLogger, version: 'lock', port: 0 });
  try {
    const out = {} as ClubSnapshots;
    for (const [tier, scopes] of Object.entries(CLUB_TIERS) as [ClubTier, string | undefined][]) {
      const headers: Record<string, string> = {};
      if (scopes !== undefined) {
        const handle = `lock-${tier}`;
        await addPrincipal(store, handle, {
          status: tier === 'member' ? 'member' : 'candidate',
          name: handle,
        });
        const issued = await issueAgentToken(store, registry, handle, { scopes, label: `${handle}-agent` });
        headers.Authorization = `Bearer ${issued.token}`;
      }
      out[tier] = await loadSnapshot({ url: server.mcpUrl, headers });
    }
    return out;
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each tier's served snapshot against its committed lock, every surface judged by the gate's
 * own comparison. A version-1 lock (tools only) is still read: the surfaces it never pinned
 * are named in `unpinned`, not judged, until it is blessed again.
 */
export async function checkClubLocks(
  dir = CLUB_LOCK_DIR,
  served?: ClubSnapshots,
): Promise<Record<ClubTier, ServerComparison>> {
  const now = served ?? (await servedClub());
  const out = {} as Record<ClubTier, ServerComparison>;
  for (const tier of TIERS) out[tier] = compareSnapshots(lockedClub(tier, dir), now[tier]);
  return out;
}

/** What a tier's lock pins, as a snapshot the comparison reads. */
export function lockedClub(tier: ClubTier, dir = CLUB_LOCK_DIR): ServerSnapshot {
  return lockSnapshot(pickServer(readLock(clubLockFile(tier, dir)), DEFAULT_SERVER));
}

/** Names an item in one line: `tool ask_agent`, `skill skill://…`, `instructions`. */
function itemName(item: ItemReport): string {
  return item.name.startsWith('(') ? item.kind : `${item.kind} ${item.name}`;
}

/**
 * Writes each tier's lock (version 2, every surface) from what the club serves now. Every
 * change is recorded in the audit trail, and so are surfaces an older lock never pinned.
 */
export async function blessClubLocks(
  reason: string,
  dir = CLUB_LOCK_DIR,
  served?: ClubSnapshots,
): Promise<string[]> {
  const now = served ?? (await servedClub());
  fs.mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  const lines: string[] = [];
  for (const tier of TIERS) {
    const file = clubLockFile(tier, dir);
    const snapshot = now[tier];
    const pinned = { [DEFAULT_SERVER]: lockServer(snapshot) };
    if (!fs.existsSync(file)) {
      writeLock(file, buildLock(pinned, [{ at, action: 'pin', by: 'hand', reason }]));
      lines.push(`${tier}: pinned ${counts(snapshot)} in ${file}`);
      continue;
    }
    const lock = readLock(file);
    const result = compareSnapshots(lockedClub(tier, dir), snapshot);
    const changed = result.items.filter((t) => t.verdict !== 'identical');
    const unpinned = result.unpinned;
    if (changed.length === 0 && unpinned.length === 0) {
      lines.push(`${tier}: unchanged`);
      continue;
    }
    // A compatible change is taken automatically; anything else is blessed by hand, with the reason.
    const audit: AuditEntry[] = changed.map((item) =>
      acceptEntry(at, item, { byHand: item.verdict !== 'compatible', reason }),
    );
    if (unpinned.length > 0)
      audit.push({
        at,
        action: 'pin',
        by: 'auto',
        reason: `pinned ${unpinned.join(', ')} (not in the lock before)`,
      });
    writeLock(file, buildLock(pinned, [...lock.audit, ...audit]));
    const what = [
      ...changed.map((t) => `${itemName(t)} (${t.verdict})`),
      ...(unpinned.length > 0 ? [`pinned ${unpinned.join(', ')}`] : []),
    ];
    lines.push(`${tier}: ${what.join(', ')} blessed in ${file}`);
  }
  return lines;
}

/** "15 tools, 2 resources, 1 skill, instructions": what a fresh lock holds. */
function counts(s: ServerSnapshot): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return [
    n(s.tools.length, 'tool'),
    n(s.resources?.length ?? 0, 'resource'),
    n(s.skills?.length ?? 0, 'skill'),
    ...(s.instructions ? ['instructions'] : []),
  ].join(', ');
}

export async function runClub(argv: string[], io: CliIo): Promise<number> {
  const args = readClubArgs(argv);
  if (args.help) {
    io.stdout(CLUB_USAGE);
    return GATE_EXIT.pass;
  }
  if (args.bless) {
    const lines = await blessClubLocks(args.reason ?? 'blessed with warden gate club --bless');
    io.stdout(`${lines.join('\n')}\n`);
    return GATE_EXIT.pass;
  }
  const results = await checkClubLocks();
  const lines: string[] = [];
  for (const [tier, comparison] of Object.entries(results)) {
    const text = renderText({ verdict: comparison.verdict, servers: [{ name: tier, comparison }] });
    lines.push(
      `${tier}:`,
      ...text
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
    );
  }
  const verdict = worstVerdict(Object.values(results).map((r) => r.verdict));
  if (Object.values(results).some((r) => r.unpinned.length > 0))
    lines.push(`surfaces not in a lock yet are pinned by "${BLESS_COMMAND}"`);
  if (verdict === 'breaking' || verdict === 'unknown')
    lines.push(
      `what the club serves breaks its lock; if that is intended, run "${BLESS_COMMAND}" and commit ${CLUB_LOCK_DIR}/`,
    );
  io.stdout(`${lines.join('\n')}\n`);
  // The gate's exit codes, as every gate command's: 0 pass, 1 breaking, 2 unknown (3 is an error).
  return verdict === 'breaking'
    ? GATE_EXIT.breaking
    : verdict === 'unknown'
      ? GATE_EXIT.unknown
      : GATE_EXIT.pass;
}

function readClubArgs(argv: string[]): { bless: boolean; reason?: string; help: boolean } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        bless: { type: 'boolean' },
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    return { bless: values.bless ?? false, reason: values.reason, help: values.help ?? false };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
