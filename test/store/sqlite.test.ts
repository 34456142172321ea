import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS } from '../../src/store/schema.ts';
import { SqlStore } from '../../src/store/sql-store.ts';
import { openSqlite } from '../../src/store/sqlite/executor.ts';
import { storeContract } from './contract/index.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => path.join(dir, `store-${++files}.db`);

storeContract('sqlite', { open: async () => new SqlStore(openSqlite(freshFile())) });

void describe('sqlite file', () => {
  void it('is in WAL mode with synchronous=FULL and foreign keys on after reopening', async () => {
    const file = freshFile();
    openSqlite(file).db.close();
    const db = openSqlite(file);
    try {
      assert.equal(db.pragma('journal_mode'), 'wal');
      assert.equal(db.pragma('synchronous'), 2);
      assert.equal(db.pragma('foreign_keys'), 1);
    } finally {
      await db.close();
    }
  });

  void it('runs each migration once: reopening keeps the data and the schema version', async () => {
    const file = freshFile();
    const first = new SqlStore(openSqlite(file));
    const alice = await first.createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });
    await first.close();
    const raw = new Database(file);
    const ddl = raw.prepare(`SELECT COUNT(*) AS n FROM sqlite_master`).get();
    raw.close();
    for (let i = 0; i < 2; i++) {
      const again = openSqlite(file);
      try {
        assert.equal(again.pragma('user_version'), MIGRATIONS.length);
        assert.deepEqual(await again.get(`SELECT COUNT(*) AS n FROM sqlite_master`), ddl);
        assert.equal((await new SqlStore(again).getPrincipalById(alice.id))?.handle, 'alice');
      } finally {
        await again.close();
      }
    }
  });

  void it('a store from before the mandate terms gains their defaults and keeps every term it had', async () => {
    const file = freshFile();
    const before = MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN terms'));
    assert.ok(before > 0, 'the migration that adds the terms');
    const raw = new Database(file);
    for (const m of MIGRATIONS.slice(0, before)) raw.exec(m);
    raw.pragma(`user_version = ${before}`);
    const at = '2026-01-01T00:00:00.000Z';
    raw
      .prepare(
        `INSERT INTO principals (id, handle, status, display_name, created_at, updated_at) VALUES ('pr_1', 'alice', 'member', 'A', ?, ?)`,
      )
      .run(at, at);
    raw
      .prepare(
        `INSERT INTO mandates (principal_id, scopes, consult_counterparts, consult_daily, reviews_need_approval, updated_at)
         VALUES ('pr_1', '["inbox","consult"]', '["dave"]', 4, 0, ?)`,
      )
      .run(at);
    raw
      .prepare(
        `INSERT INTO decisions (id, principal_id, token_id, tool, arguments, reason_code, reason, status, created_at)
         VALUES ('dc_1', 'pr_1', NULL, 'ask_agent', '{}', 'counterpart_not_in_mandate', 'r', 'denied', ?)`,
      )
      .run(at);
    raw.close();
    const store = new SqlStore(openSqlite(file));
    try {
      const m = await store.getMandate('pr_1');
      assert.deepEqual(m.scopes, ['inbox', 'consult']);
      assert.deepEqual(m.consult, { counterparts: ['dave'], dailyLimit: 4 });
      assert.equal(m.reviewsNeedApproval, false);
      assert.deepEqual(m.answer, { counterparts: 'consult' }, 'answers follow consult: only @dave');
      assert.deepEqual(m.profile, {
        inboxNeedsApproval: true,
        nameNeedsApproval: true,
        textNeedsApproval: false,
      });
      assert.equal(m.selfReportsNeedApproval, true);
      assert.equal(m.denialWindowDays, 30);
      assert.equal(
        (await store.getDecision('dc_1'))?.requestKey,
        null,
        'an older decision is kept, with no key',
      );
    } finally {
      await store.close();
    }
  });

  void it('is what openStore gives for a file path', async () => {
    const store = await openStore(freshFile());
    try {
      assert.equal(store.kind, 'sqlite');
      assert.equal(
        (await store.createPrincipal({ handle: 'a', status: 'member', displayName: 'A' })).handle,
        'a',
      );
    } finally {
      await store.close();
    }
  });
});
