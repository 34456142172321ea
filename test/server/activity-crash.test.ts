import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { crashRounds, type Round } from '../../bench/activity-crash.ts';
import { PgSchemas } from '../store/pg-schemas.ts';

/** A few of the bench's rounds (npm run bench -- activity-crash runs twenty on each store). */
const ROUNDS = 2;

function check(rounds: Round[]): void {
  assert.equal(rounds.length, ROUNDS);
  for (const r of rounds) {
    assert.ok(r.acknowledged > 0, 'the load got calls answered before the kill');
    assert.equal(r.missing, 0, `${r.missing} acknowledged calls missing from the record`);
    assert.ok(r.recorded >= r.acknowledged);
  }
}

describe('an acknowledged call is on the Activity record after kill -9 (a child server, real HTTP)', () => {
  it('on SQLite: every answered call is recorded, round after round on the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-crash-'));
    try {
      check(await crashRounds(join(dir, 'crash.db'), ROUNDS, 1500));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const pg = process.env['WARDEN_TEST_PG'];
  it(
    'on PostgreSQL: every answered call is recorded',
    { skip: pg ? false : 'WARDEN_TEST_PG unset' },
    async () => {
      const schemas = new PgSchemas(pg!);
      try {
        check(await crashRounds(await schemas.fresh(), ROUNDS, 1500));
      } finally {
        await schemas.dropAll();
      }
    },
  );
});
