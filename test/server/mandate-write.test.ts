import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdminRefusal } from '../../src/admin/errors.ts';
import { changeMandate } from '../../src/admin/mandate.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { computePermissions } from '../../src/core/policy/index.ts';
import { spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';

describe('an agent can never widen itself: mandate:write', () => {
  let club: TestClub;
  before(async () => {
    club = await startClub();
    await club.addMember('alice');
    await club.addCandidate('bob');
  });
  after(() => club.close());

  it('is never issued to a token, nor any unknown or above-tier scope', async () => {
    const cases: [string, string, string][] = [
      ['alice', 'inbox,mandate:write', 'scope_not_grantable'],
      ['alice', 'inbox,root', 'unknown_scope'],
      ['bob', 'inbox,consult', 'above_tier'],
      ['bob', 'vouch', 'above_tier'],
    ];
    for (const [handle, scopes, code] of cases) {
      await assert.rejects(issueAgentToken(club.store, club.registry, handle, { scopes }), (err: unknown) => {
        assert.ok(err instanceof AdminRefusal);
        assert.equal(err.code, code, scopes);
        return true;
      });
    }
    const p = await club.store.getPrincipalByHandle('alice');
    assert.ok((await club.store.listTokens(p!.id)).every((t) => !t.scopes.includes('mandate:write')));
  });

  it('is never stored in a mandate', async () => {
    await assert.rejects(
      changeMandate({ store: club.store, registry: club.registry }, 'alice', {
        scopes: 'inbox,mandate:write',
      }),
      (err: unknown) => err instanceof AdminRefusal && err.code === 'scope_not_grantable',
    );
    const p = await club.store.getPrincipalByHandle('alice');
    const m = await club.store.setMandate(p!.id, {
      ...(await club.store.getMandate(p!.id)),
      scopes: ['inbox', 'mandate:write'],
    });
    assert.deepEqual(m.scopes, ['inbox'], 'the store strips it too');
  });

  it('threat: set_mandate: presents a token row and a mandate row forged to hold mandate:write', async () => {
    const { token, tokenId } = await club.addMember('mallory');
    const sql = (club.store as unknown as { sql: { run(s: string, p: unknown[]): Promise<number> } }).sql;
    const everything = JSON.stringify([
      'profile:write',
      'evidence:write',
      'inbox',
      'mandate:read',
      'consult',
      'vouch',
      'mandate:write',
    ]);
    const p = await club.store.getPrincipalByHandle('mallory');
    await sql.run('UPDATE tokens SET scopes = ? WHERE id = ?', [everything, tokenId]);
    await sql.run('UPDATE mandates SET scopes = ? WHERE principal_id = ?', [everything, p!.id]);

    const spy = spyOnHandler(club.registry, 'set_mandate');
    for (const era of ['legacy', 'modern'] as const) {
      const client = await club.connect(token, era);
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.equal(names.length, 14);
      assert.ok(!names.includes('set_mandate'));
      await assert.rejects(
        client.callTool({ name: 'set_mandate', arguments: { scopes: ['inbox'] } }),
        /Tool set_mandate not found/,
      );
    }
    assert.equal(spy.calls, 0);
  });

  it('is stripped by the permission computation itself', () => {
    const p = computePermissions('member', ['mandate:write', 'inbox'], ['mandate:write', 'inbox']);
    assert.deepEqual([...p.effective], ['inbox']);
    assert.deepEqual(p.grants.find((g) => g.scope === 'mandate:write')?.missing, ['principal_only']);
  });
});
