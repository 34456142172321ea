import { defaultMandate } from '../../src/core/mandate.ts';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openStore } from '../../src/store/index.ts';
import { openPostgres } from '../../src/store/postgres/executor.ts';
import { MIGRATIONS } from '../../src/store/schema.ts';
import { SqlStore } from '../../src/store/sql-store.ts';
import { storeContract } from './contract/index.ts';
import { PgSchemas } from './pg-schemas.ts';

const url = process.env['WARDEN_TEST_PG'];

if (!url) {
  void describe('store contract: postgres', () => {
    void it(
      'needs WARDEN_TEST_PG',
      { skip: 'WARDEN_TEST_PG is not set to a postgres:// URL: PostgreSQL not tested' },
      () => {
        assert.fail('unreachable');
      },
    );
  });
} else {
  const schemas = new PgSchemas(url);
  after(() => schemas.dropAll());

  storeContract('postgres', { open: async () => new SqlStore(await openPostgres(await schemas.fresh())) });

  void describe('postgres migrations', () => {
    const versions = async (schemaUrl: string) => {
      const sql = await openPostgres(schemaUrl);
      try {
        return (await sql.all('SELECT version FROM warden_schema_version ORDER BY version')).map(
          (r) => r['version'],
        );
      } finally {
        await sql.close();
      }
    };
    const expected = MIGRATIONS.map((_, i) => i + 1);

    void it('runs each migration once: reopening keeps the data and the recorded versions', async () => {
      const schemaUrl = await schemas.fresh();
      const first = new SqlStore(await openPostgres(schemaUrl));
      const alice = await first.createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });
      await first.close();
      for (let i = 0; i < 2; i++) {
        const again = new SqlStore(await openPostgres(schemaUrl));
        try {
          assert.equal((await again.getPrincipalById(alice.id))?.handle, 'alice');
        } finally {
          await again.close();
        }
      }
      assert.deepEqual(await versions(schemaUrl), expected);
    });

    void it('is safe when several replicas start at once on an empty database', async () => {
      const schemaUrl = await schemas.fresh();
      const replicas = await Promise.all(Array.from({ length: 6 }, () => openPostgres(schemaUrl)));
      try {
        const stores = replicas.map((r) => new SqlStore(r));
        const p = await stores[0]!.createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });
        for (const s of stores) assert.equal((await s.getPrincipalById(p.id))?.handle, 'alice');
      } finally {
        await Promise.all(replicas.map((r) => r.close()));
      }
      assert.deepEqual(await versions(schemaUrl), expected);
    });

    void it('sees a mandate narrowed through one replica on the next read of another', async () => {
      const schemaUrl = await schemas.fresh();
      const [one, two] = [
        new SqlStore(await openPostgres(schemaUrl)),
        new SqlStore(await openPostgres(schemaUrl)),
      ];
      try {
        const p = await one.createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });
        await one.insertToken({
          principalId: p.id,
          label: 'l',
          hash: 'h',
          scopes: ['inbox'],
          expiresAt: null,
        });
        assert.ok((await two.findCredential('h'))?.mandate.scopes.includes('consult'));
        await one.setMandate(p.id, {
          ...defaultMandate(),
          scopes: ['inbox'],
          consult: { counterparts: 'any', dailyLimit: 1 },
          reviewsNeedApproval: true,
        });
        assert.deepEqual((await two.findCredential('h'))?.mandate.scopes, ['inbox']);
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });

    void it('fails to open, without hanging, when the server refuses the login', async () => {
      const bad = new URL(url);
      bad.password = 'not-the-password';
      bad.username = 'warden_no_such_role';
      await assert.rejects(openPostgres(bad.toString()));
    });

    void it('is what openStore gives for a postgres:// URL', async () => {
      const store = await openStore(await schemas.fresh());
      try {
        assert.equal(store.kind, 'postgres');
        assert.equal(
          (await store.createPrincipal({ handle: 'a', status: 'member', displayName: 'A' })).handle,
          'a',
        );
      } finally {
        await store.close();
      }
    });
  });
}
