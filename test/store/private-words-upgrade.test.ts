import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/schema.ts';
import { SqlStore } from '../../src/store/sql-store.ts';
import { openSqlite } from '../../src/store/sqlite/executor.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

void it('a store from before private words upgrades in place, keeping its data', async () => {
  const file = path.join(dir, 'old.db');
  const before = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE private_words'));
  assert.ok(before > 0);
  const old = new Database(file);
  for (const m of MIGRATIONS.slice(0, before)) old.exec(m);
  old.pragma(`user_version = ${before}`);
  const at = '2026-01-01T00:00:00.000Z';
  old
    .prepare(
      `INSERT INTO principals (id, handle, status, display_name, created_at, updated_at) VALUES ('pr_a', 'alice', 'member', 'Alice', ?, ?)`,
    )
    .run(at, at);
  old.close();

  const store = new SqlStore(openSqlite(file));
  try {
    assert.equal((await store.getPrincipalById('pr_a'))?.handle, 'alice');
    await store.recordPrivateWords(
      'pr_a',
      [{ fingerprint: '0123456789abcdef', author: 'mallory' }],
      new Date(),
    );
    assert.equal(await store.countPrivateWords('pr_a'), 1);
  } finally {
    await store.close();
  }
});
