import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESULT_BYTE_BUDGET } from '../../src/tools/paging.ts';
import { ALL_AGENT_SCOPES, CANDIDATE_SCOPES, rawPost, startClub, type TestClub } from '../helpers/club.ts';

type Client = Awaited<ReturnType<TestClub['connect']>>;

/**
 * What tools/list may weigh per tier, in bytes of the JSON-RPC result. Measured at
 * 3,082 / 9,910 / 13,975 bytes when set (28,132 for a member before the catalog was
 * made lean); inflating a schema or a description past these fails here. Raised by 600
 * for candidates and members when update_profile, file_evidence and answer_question
 * gained the queued result (private words: their text may wait for the principal),
 * measured then at 10,486 and 14,551.
 */
const CATALOG_BUDGET = { anonymous: 3_300, candidate: 10_600, member: 14_600 };

describe('budgets: a lean catalog per tier, and no tool result over 64 KB', () => {
  let club: TestClub;
  let member: { token: string };
  let candidate: { token: string };
  let alice: Client;
  before(async () => {
    club = await startClub();
    member = await club.addMember('alice', ALL_AGENT_SCOPES);
    candidate = await club.addCandidate('carol', CANDIDATE_SCOPES);
    alice = await club.connect(member.token);
  });
  after(() => club.close());

  it('keeps tools/list under its byte budget for each tier', async () => {
    for (const [tier, token] of [
      ['anonymous', undefined],
      ['candidate', candidate.token],
      ['member', member.token],
    ] as const) {
      const res = await rawPost(
        club.server.mcpUrl,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        token ? { authorization: `Bearer ${token}` } : {},
      );
      const body = (await res.json()) as { result: { tools: unknown[] } };
      const bytes = Buffer.byteLength(JSON.stringify(body.result));
      assert.ok(
        bytes <= CATALOG_BUDGET[tier],
        `${tier}: tools/list is ${bytes} bytes, budget ${CATALOG_BUDGET[tier]}`,
      );
    }
  });

  it('publishes output schemas the SDK client validates every result against ($defs resolved)', async () => {
    const { tools } = await alice.listTools(); // the client caches a validator per tool from here on
    assert.equal(tools.length, 14);
    await alice.callTool({ name: 'update_profile', arguments: { headline: 'Sails' } });
    await alice.callTool({ name: 'file_evidence', arguments: { origin: 'manual', claim: 'Did a thing' } });
    for (const [name, args] of [
      ['club_info', {}],
      ['list_members', { limit: 5 }],
      ['get_profile', { handle: 'alice' }],
      ['list_evidence', {}],
      ['list_questions', { status: 'all' }],
      ['get_mandate', {}],
      ['list_decisions', {}],
      ['get_consultation', {}],
      ['list_candidates', {}],
      ['ask_agent', { to: 'carol', question: 'Hello?' }],
    ] as const) {
      const r = await alice.callTool({ name, arguments: args });
      assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content)}`);
    }
  });

  it('cuts a page at an item boundary before 64 KB, marks it, and the cursor continues with nothing lost', async () => {
    const me = (await club.store.getPrincipalByHandle('alice'))!;
    // 60 claims of 2,000 four-byte characters: ~480 KB of text if it came back at once.
    for (let i = 0; i < 60; i++) {
      await club.store.addEvidence({
        principalId: me.id,
        origin: 'manual',
        claim: `${String(i).padStart(2, '0')} ${'𝔘'.repeat(1997)}`,
        artifactRef: null,
      });
    }
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await alice.callTool({
        name: 'list_evidence',
        arguments: { limit: 100, ...(cursor ? { cursor } : {}) },
      });
      const text = (r.content as { type: string; text: string }[])[0]!.text;
      assert.ok(
        Buffer.byteLength(text) <= RESULT_BYTE_BUDGET,
        `page text is ${Buffer.byteLength(text)} bytes`,
      );
      const data = r.structuredContent as {
        evidence: { id: string }[];
        next_cursor?: string;
        cut_at_byte_budget?: true;
      };
      pages++;
      for (const e of data.evidence) {
        assert.ok(!seen.has(e.id), 'no item repeated');
        seen.add(e.id);
      }
      if (data.next_cursor) assert.equal(data.cut_at_byte_budget, true, 'a short page says why it stopped');
      if (!data.next_cursor) break;
      cursor = data.next_cursor;
    }
    assert.ok(pages > 1, 'the list took more than one page');
    assert.equal(seen.size, 61, 'every item, across the pages');
  });
});
