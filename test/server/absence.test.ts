import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawPost, spyOnHandler, startClub, type Era, type TestClub } from '../helpers/club.ts';

async function callError(club: TestClub, token: string | undefined, era: Era, name: string) {
  const client = await club.connect(token, era);
  try {
    await client.callTool({ name, arguments: {} });
  } catch (err) {
    const e = err as { code?: number; message: string };
    return { code: e.code, message: e.message.replaceAll(name, '<name>') };
  }
  assert.fail(`${name} did not fail`);
}

describe('a hidden tool is indistinguishable from one that never existed', () => {
  let club: TestClub;
  let candidate: string;
  before(async () => {
    club = await startClub();
    await club.addMember('alice');
    candidate = (await club.addCandidate('bob')).token;
  });
  after(() => club.close());

  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`same error for hidden and nonexistent names, handler never runs (${era})`, async () => {
      const spies = ['ask_agent', 'review_candidate', 'set_mandate', 'update_profile'].map(
        (n) => [n, spyOnHandler(club.registry, n)] as const,
      );
      const nonexistent = await callError(club, candidate, era, 'no_such_tool');
      for (const hidden of ['ask_agent', 'review_candidate', 'set_mandate']) {
        assert.deepEqual(await callError(club, candidate, era, hidden), nonexistent, hidden);
      }
      // Anonymous callers: every scoped tool is absent.
      assert.deepEqual(
        await callError(club, undefined, era, 'update_profile'),
        await callError(club, undefined, era, 'no_such_thing'),
      );
      for (const [name, spy] of spies) assert.equal(spy.calls, 0, `${name} handler ran`);
    });
  }

  it('same JSON-RPC error on the wire, byte for byte but the name', async () => {
    const call = async (name: string) => {
      const res = await rawPost(
        club.server.mcpUrl,
        JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } }),
        { authorization: `Bearer ${candidate}` },
      );
      return { status: res.status, body: (await res.text()).replaceAll(name, '<name>') };
    };
    assert.deepEqual(await call('review_candidate'), await call('zz_not_a_tool'));
  });

  it('validates arguments against the schema before the handler runs', async () => {
    const spy = spyOnHandler(club.registry, 'file_evidence');
    const client = await club.connect(candidate, 'legacy');
    const r = await client.callTool({ name: 'file_evidence', arguments: { origin: 'rumour', claim: 42 } });
    assert.equal(r.isError, true);
    assert.equal((r._meta?.['warden/refusal'] as { code: string }).code, 'invalid_arguments');
    assert.equal(spy.calls, 0);
  });
});
