import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startClub, type Era, type TestClub } from '../helpers/club.ts';

const PUBLIC = ['club_info', 'list_members', 'get_profile'];
const CANDIDATE = [
  ...PUBLIC,
  'update_profile',
  'file_evidence',
  'list_evidence',
  'list_questions',
  'answer_question',
  'get_mandate',
  'list_decisions',
];
const MEMBER = [...CANDIDATE, 'ask_agent', 'get_consultation', 'list_candidates', 'review_candidate'];

describe('refusal by absence: tools/list is the caller’s view', () => {
  let club: TestClub;
  let member: string;
  let candidate: string;
  before(async () => {
    club = await startClub();
    member = (await club.addMember('alice')).token;
    candidate = (await club.addCandidate('bob')).token;
  });
  after(() => club.close());

  it('registers 15 tools', () => {
    assert.equal(club.registry.all().length, 15);
  });

  for (const era of ['legacy', 'modern'] as Era[]) {
    describe(`over HTTP, ${era} client`, () => {
      it('anonymous sees 3, candidate 10, member 14, in a fixed order', async () => {
        for (const [token, expected] of [
          [undefined, PUBLIC],
          [candidate, CANDIDATE],
          [member, MEMBER],
        ] as const) {
          const client = await club.connect(token, era);
          const listed = await client.listTools();
          assert.deepEqual(
            listed.tools.map((t) => t.name),
            expected,
          );
          const again = await client.listTools();
          assert.deepEqual(again.tools, listed.tools, 'deterministic');
        }
      });

      it('never lists set_mandate, even to a full member token', async () => {
        const client = await club.connect(member, era);
        const names = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(!names.includes('set_mandate'));
      });

      it('publishes input and output schemas for every tool it lists', async () => {
        const client = await club.connect(member, era);
        for (const t of (await client.listTools()).tools) {
          assert.equal(t.inputSchema.type, 'object', t.name);
          assert.ok(t.outputSchema, `${t.name} has an output schema`);
          assert.ok((t.description ?? '').length > 40, `${t.name} has a description written for a model`);
        }
      });
    });
  }

  it('marks tools/list private on the 2026-07-28 revision', async () => {
    const client = await club.connect(member, 'modern');
    const listed = (await client.listTools()) as { cacheScope?: string; ttlMs?: number };
    assert.equal(listed.cacheScope, 'private');
    assert.equal(listed.ttlMs, 0);
  });
});
