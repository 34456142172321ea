import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  compareManifests,
  lockToTools,
  readLock,
  renderText,
  type JsonObject,
  type Tool,
} from '@warden-mcp/gate';
import {
  BLESS_COMMAND,
  blessClubLocks,
  checkClubLocks,
  CLUB_TIERS,
  clubLockFile,
  servedClubManifests,
  type ClubTier,
} from '../../src/cli/gate/club.ts';

describe('Warden gates itself: the club manifest against its committed lock', () => {
  it('no tier’s served tools/list breaks its lock (compatible changes pass without re-blessing)', async () => {
    const results = await checkClubLocks();
    for (const [tier, result] of Object.entries(results)) {
      assert.ok(
        result.verdict !== 'breaking' && result.verdict !== 'unknown',
        `the ${tier} view of the club's tools/list is ${result.verdict} against ${clubLockFile(tier as ClubTier)}:\n` +
          `${renderText(result)}If this change is intended, run "${BLESS_COMMAND}" and commit the lock in the same commit.`,
      );
    }
  });

  it('a breaking change to a served tool would fail that check', async () => {
    const served = await servedClubManifests();
    const locked = lockToTools(readLock(clubLockFile('member')));
    const broken: Tool[] = served.member.map((t, i) =>
      i === 0
        ? {
            ...t,
            inputSchema: {
              ...(t.inputSchema as JsonObject),
              properties: {
                ...((t.inputSchema as JsonObject).properties as JsonObject),
                must_now_send: { type: 'string' },
              },
              required: ['must_now_send'],
            },
          }
        : t,
    );
    assert.equal(compareManifests(locked, broken).verdict, 'breaking');
    const fewer = served.member.slice(1);
    assert.equal(compareManifests(locked, fewer).verdict, 'breaking', 'a tool no longer served breaks');
  });

  it('blessing writes one lock per tier that then checks clean, with an audit trail', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'warden-club-lock-test-'));
    try {
      const lines = await blessClubLocks('test', dir);
      assert.equal(lines.length, Object.keys(CLUB_TIERS).length);
      for (const [tier, result] of Object.entries(await checkClubLocks(dir))) {
        assert.equal(result.verdict, 'identical', tier);
        const lock = readLock(clubLockFile(tier as ClubTier, dir));
        assert.equal(lock.audit[0]?.action, 'pin');
      }
      assert.deepEqual(await blessClubLocks('again', dir), [
        'anonymous: unchanged',
        'candidate: unchanged',
        'member: unchanged',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
