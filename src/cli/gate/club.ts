import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildLock,
  DEFAULT_SERVER,
  lockServer,
  compareManifests,
  loadTools,
  lockToTools,
  readLock,
  renderText,
  worstVerdict,
  writeLock,
  type AuditEntry,
  type ManifestComparison,
  type Tool,
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

export { BLESS_COMMAND, CLUB_LOCK_DIR };

export function clubLockFile(tier: ClubTier, dir = CLUB_LOCK_DIR): string {
  return path.join(dir, `club-${tier}.lock.json`);
}

/**
 * What Warden's club serves each tier, read the way any agent reads it: a real server on
 * loopback HTTP over a fresh store, listed through the official MCP client, every page.
 */
export async function servedClubManifests(): Promise<Record<ClubTier, Tool[]>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'warden-club-lock-'));
  const store = await openStore(path.join(dir, 'club.db'));
  const registry = buildRegistry();
  const server = await startHttpServer({ store, registry, logger: silentLogger, version: 'lock', port: 0 });
  try {
    const out = {} as Record<ClubTier, Tool[]>;
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
      out[tier] = await loadTools({ url: server.mcpUrl, headers });
    }
    return out;
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each tier's served manifest against its committed lock. */
export async function checkClubLocks(dir = CLUB_LOCK_DIR): Promise<Record<ClubTier, ManifestComparison>> {
  const served = await servedClubManifests();
  const out = {} as Record<ClubTier, ManifestComparison>;
  for (const tier of Object.keys(CLUB_TIERS) as ClubTier[]) {
    out[tier] = compareManifests(lockToTools(readLock(clubLockFile(tier, dir))), served[tier]);
  }
  return out;
}

/** Writes each tier's lock from what the club serves now; every change is recorded in the audit trail. */
export async function blessClubLocks(reason: string, dir = CLUB_LOCK_DIR): Promise<string[]> {
  const served = await servedClubManifests();
  fs.mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  const lines: string[] = [];
  for (const tier of Object.keys(CLUB_TIERS) as ClubTier[]) {
    const file = clubLockFile(tier, dir);
    const tools = served[tier];
    if (!fs.existsSync(file)) {
      writeLock(
        file,
        buildLock({ [DEFAULT_SERVER]: lockServer({ tools }) }, [{ at, action: 'pin', by: 'hand', reason }]),
      );
      lines.push(`${tier}: pinned ${tools.length} tools in ${file}`);
      continue;
    }
    const lock = readLock(file);
    const result = compareManifests(lockToTools(lock), tools);
    const changed = result.tools.filter((t) => t.verdict !== 'identical');
    if (changed.length === 0) {
      lines.push(`${tier}: unchanged`);
      continue;
    }
    const audit: AuditEntry[] = changed.map((t) => ({
      at,
      action: 'accept',
      tool: t.name,
      change: t.change === 'unchanged' ? 'changed' : t.change,
      verdict: t.verdict,
      oldHash: t.oldHash,
      newHash: t.newHash,
      by: t.verdict === 'compatible' ? 'auto' : 'hand',
      ...(t.verdict === 'compatible' ? {} : { reason }),
    }));
    writeLock(file, buildLock({ [DEFAULT_SERVER]: lockServer({ tools }) }, [...lock.audit, ...audit]));
    lines.push(`${tier}: ${changed.map((t) => `${t.name} (${t.verdict})`).join(', ')} blessed in ${file}`);
  }
  return lines;
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
  for (const [tier, result] of Object.entries(results)) {
    const text = renderText(result);
    if (text)
      lines.push(
        `${tier}:`,
        ...text
          .trimEnd()
          .split('\n')
          .map((l) => `  ${l}`),
      );
  }
  const verdict = worstVerdict(Object.values(results).map((r) => r.verdict));
  if (verdict === 'breaking' || verdict === 'unknown')
    lines.push(
      `the club's manifest breaks its lock; if that is intended, run "${BLESS_COMMAND}" and commit ${CLUB_LOCK_DIR}/`,
    );
  if (lines.length > 0) io.stdout(`${lines.join('\n')}\n`);
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
