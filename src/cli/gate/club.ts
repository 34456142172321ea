import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareManifests, worstVerdict, type ManifestComparison, type Tool } from '../../compat/index.ts';
import { addPrincipal } from '../../admin/principals.ts';
import { issueToken } from '../../admin/tokens.ts';
import { silentLogger, startHttpServer } from '../../server/index.ts';
import { openStore } from '../../store/index.ts';
import { buildRegistry } from '../../tools/index.ts';
import { EXIT, type CliIo } from '../io.ts';
import { buildLock, lockToTools, writeLock, type AuditEntry } from './lockfile.ts';
import { readLock } from './compare.ts';
import { parseGateArgs } from './options.ts';
import { renderText } from './render.ts';
import { loadTools } from './sources.ts';

/** The tiers whose views of the club are locked, and the scopes their test agents hold. */
export const CLUB_TIERS = {
  anonymous: undefined,
  candidate: 'profile:write,evidence:write,inbox,mandate:read',
  member: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
} as const;
export type ClubTier = keyof typeof CLUB_TIERS;

/** Where the committed locks of Warden's own club manifest live, one per tier. */
export const CLUB_LOCK_DIR = 'gate';
export const BLESS_COMMAND = 'npm run gate:bless';

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
        const issued = await issueToken(store, registry, handle, { scopes, label: `${handle}-agent` });
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
      writeLock(file, buildLock(tools, [{ at, action: 'pin', by: 'hand', reason }]));
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
    writeLock(file, buildLock(tools, [...lock.audit, ...audit]));
    lines.push(`${tier}: ${changed.map((t) => `${t.name} (${t.verdict})`).join(', ')} blessed in ${file}`);
  }
  return lines;
}

export const CLUB_USAGE = `Usage: warden gate club [--bless [--reason TEXT]]

Warden gates itself: each tier's view of the club's own tools/list (anonymous, candidate,
member) is compared with its committed lock under ${CLUB_LOCK_DIR}/. Compatible changes pass;
a breaking or unknown change fails until it is blessed in the same commit with
"${BLESS_COMMAND}" (warden gate club --bless), which records it in each lock's audit trail.
`;

export async function runClub(argv: string[], io: CliIo): Promise<number> {
  const bless = argv.includes('--bless');
  const args = parseGateArgs(
    argv.filter((a) => a !== '--bless'),
    ['reason'],
  );
  if (args.help) {
    io.stdout(CLUB_USAGE);
    return EXIT.ok;
  }
  if (bless) {
    const lines = await blessClubLocks(args.reason ?? 'blessed with warden gate club --bless');
    io.stdout(`${lines.join('\n')}\n`);
    return EXIT.ok;
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
  return verdict === 'breaking' ? EXIT.failed : verdict === 'unknown' ? EXIT.error : EXIT.ok;
}
