import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { changeMandate } from '../../src/admin/mandate.ts';
import { setStatus } from '../../src/admin/principals.ts';
import { revokeToken } from '../../src/admin/tokens.ts';
import { startClub, type Era, type TestClub } from '../helpers/club.ts';

describe('permissions are recomputed from the store on every request', () => {
  let club: TestClub;
  before(async () => {
    club = await startClub();
  });
  after(() => club.close());

  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`narrowing a mandate binds a token issued before, at its next request, connection kept open (${era})`, async () => {
      const handle = `nora-${era}`;
      const { token } = await club.addMember(handle);
      const client = await club.connect(token, era);
      assert.equal((await client.listTools()).tools.length, 14);

      await changeMandate({ store: club.store, registry: club.registry }, handle, {
        scopes: 'inbox,mandate:read',
      });
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(names, [
        'club_info',
        'list_members',
        'get_profile',
        'list_questions',
        'answer_question',
        'get_mandate',
        'list_decisions',
      ]);
      await assert.rejects(
        client.callTool({ name: 'ask_agent', arguments: { to: 'x', question: 'y' } }),
        /Tool ask_agent not found/,
      );

      // Widening again works the same way: nothing was cached either way.
      await changeMandate({ store: club.store, registry: club.registry }, handle, {
        scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
      });
      assert.equal((await client.listTools()).tools.length, 14);
    });

    it(`suspending a principal makes the very next request a 401 (${era})`, async () => {
      const handle = `sam-${era}`;
      const { token } = await club.addMember(handle);
      const client = await club.connect(token, era);
      assert.equal((await client.listTools()).tools.length, 14);
      await setStatus(club.store, handle, 'suspended');
      await assert.rejects(client.listTools(), (err: Error) =>
        /401|Unauthorized|invalid_token/i.test(String(err)),
      );
      const res = await fetch(`${club.server.url}/diagnose`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 401);
      assert.match((await res.json()).error_description, /suspended/);
    });

    it(`revoking a token makes its next request a 401 (${era})`, async () => {
      const { token, tokenId } = await club.addMember(`rita-${era}`);
      const client = await club.connect(token, era);
      await client.listTools();
      await revokeToken(club.store, tokenId);
      await assert.rejects(client.listTools(), (err: Error) =>
        /401|Unauthorized|invalid_token/i.test(String(err)),
      );
    });
  }

  it('a candidate admitted as member sees 14 tools at the next request, once token and mandate allow', async () => {
    const { token } = await club.addCandidate('cleo');
    const client = await club.connect(token, 'legacy');
    assert.equal((await client.listTools()).tools.length, 10);
    await setStatus(club.store, 'cleo', 'member');
    // The token was issued with candidate scopes: the tier rose, the token did not.
    assert.equal((await client.listTools()).tools.length, 10);
  });
});
