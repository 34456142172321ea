import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { changeMandate } from '../../src/admin/mandate.ts';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { startHttpServer, silentLogger } from '../../src/server/index.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { PgSchemas } from '../store/pg-schemas.ts';
import { connectClient } from '../helpers/club.ts';

const pgUrl = process.env['WARDEN_TEST_PG'];
const pg = pgUrl ? new PgSchemas(pgUrl) : null;
const dir = mkdtempSync(join(tmpdir(), 'warden-'));
let files = 0;

after(async () => {
  await pg?.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Two stateless replicas over one store, each with its own connection: a mandate
 * narrowed through one is in force on the other at its next request.
 */
async function twoReplicas(location: string) {
  const registry = buildRegistry();
  const storeA = await openStore(location);
  const storeB = await openStore(location);
  const a = await startHttpServer({
    store: storeA,
    registry,
    logger: silentLogger,
    version: 'test',
    port: 0,
  });
  const b = await startHttpServer({
    store: storeB,
    registry,
    logger: silentLogger,
    version: 'test',
    port: 0,
  });
  await addPrincipal(storeB, 'alice', { status: 'member' });
  const { token } = await issueAgentToken(storeB, registry, 'alice', {
    scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
  });
  return {
    token,
    a,
    b,
    narrowThroughB: () => changeMandate({ store: storeB, registry }, 'alice', { scopes: 'inbox' }),
    async close() {
      await a.close();
      await b.close();
      await storeA.close();
      await storeB.close();
    },
  };
}

for (const [backend, location] of [
  ['SQLite (one file, two connections)', async () => join(dir, `shared-${++files}.db`)],
  ['PostgreSQL', async () => (pg ? pg.fresh() : null)],
] as const) {
  describe(`replicas on ${backend}`, () => {
    it('a mandate narrowed through one replica binds the other at the next request', async (t) => {
      const where = await location();
      if (!where) return t.skip('WARDEN_TEST_PG is not set');
      const r = await twoReplicas(where);
      try {
        const viaA = await connectClient(r.a.mcpUrl, r.token, 'modern');
        const viaB = await connectClient(r.b.mcpUrl, r.token, 'legacy');
        assert.equal((await viaA.listTools()).tools.length, 14);
        assert.equal((await viaB.listTools()).tools.length, 14);
        await r.narrowThroughB();
        assert.equal((await viaA.listTools()).tools.length, 5);
        assert.equal((await viaB.listTools()).tools.length, 5);
        await viaA.close();
        await viaB.close();
      } finally {
        await r.close();
      }
    });

    it('a cursor one replica issued continues the list on the other (the signing secret is in the store)', async (t) => {
      const where = await location();
      if (!where) return t.skip('WARDEN_TEST_PG is not set');
      const r = await twoReplicas(where);
      try {
        const viaA = await connectClient(r.a.mcpUrl, r.token, 'legacy');
        const viaB = await connectClient(r.b.mcpUrl, r.token, 'legacy');
        // Evidence with its artifact is filed at once (a self-report would wait for the principal).
        const commit = (sha: string) => `https://git.example.org/dora/app/-/commit/${sha.repeat(40)}`;
        const file = (claim: string, sha: string) => ({
          name: 'file_evidence',
          arguments: { origin: 'commit', claim, artifact_ref: commit(sha) },
        });
        assert.ok(!(await viaA.callTool(file('one', 'a'))).isError);
        assert.ok(!(await viaB.callTool(file('two', 'b'))).isError);
        const first = (await viaA.callTool({ name: 'list_evidence', arguments: { limit: 1 } }))
          .structuredContent as { evidence: { id: string }[]; next_cursor?: string };
        assert.ok(first.next_cursor);
        const second = await viaB.callTool({
          name: 'list_evidence',
          arguments: { limit: 1, cursor: first.next_cursor },
        });
        assert.ok(!second.isError, JSON.stringify(second.content));
        const rest = second.structuredContent as { evidence: { id: string }[]; next_cursor?: string };
        assert.equal(rest.evidence.length, 1);
        assert.notEqual(rest.evidence[0]!.id, first.evidence[0]!.id);
        assert.equal(rest.next_cursor, undefined);
        await viaA.close();
        await viaB.close();
      } finally {
        await r.close();
      }
    });
  });
}
