import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { summarise, SUMMARY_BUDGET } from '../../src/server/activity.ts';
import type { ActivityRecord } from '../../src/store/contract.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { forHumans } from '../../src/untrusted/index.ts';
import { rawPost, spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';

const schemaOf = (name: string) =>
  buildRegistry()
    .all()
    .find((t) => t.spec.name === name)!.spec.inputSchema;

async function recordOf(club: TestClub, handle: string): Promise<ActivityRecord[]> {
  const p = await club.store.getPrincipalByHandle(handle);
  return club.store.pageActivity(p!.id, {}, { limit: 1000, newestFirst: true });
}

const text = (r: ActivityRecord) => (r.summary ? forHumans(r.summary, Number.MAX_SAFE_INTEGER) : '');

describe('the record is the principal’s: whom an act concerned comes first and whole', () => {
  it('puts the naming arguments first in the schema’s order, whatever the agent’s order, and cuts long text with a mark', () => {
    const question = 'Q'.repeat(1_000);
    const summary = summarise({ question, to: 'bob' }, schemaOf('ask_agent'));
    assert.ok(summary.startsWith('to: "bob", question: "QQQ'), summary);
    assert.match(summary, /… \(\+\d+ characters\)$/);
    assert.ok(summary.length <= SUMMARY_BUDGET);
    // A review: whom and the verdict first, the note after them.
    const review = summarise(
      { note: 'n'.repeat(3_000), verdict: 'support', handle: 'carol' },
      schemaOf('review_candidate'),
    );
    assert.match(review, /^handle: "carol", verdict: "support", note: "n+… \(\+\d+ characters\)$/);
    // Several long texts share the budget; what the schema does not declare comes last.
    const many = summarise(
      { extra: 'x'.repeat(900), claim: 'c'.repeat(900), origin: 'manual' },
      schemaOf('file_evidence'),
    );
    assert.match(
      many,
      /^origin: "manual", claim: "c+… \(\+\d+ characters\), extra: "x+… \(\+\d+ characters\)$/,
    );
    assert.ok(many.length <= SUMMARY_BUDGET, String(many.length));
    // Short arguments are whole; no schema, the agent's order.
    assert.equal(summarise({ b: 1, a: 'two' }), 'b: 1, a: "two"');
    assert.equal(summarise(undefined), '');
  });
});

describe('the record over real HTTP', () => {
  let club: TestClub;
  const tokens: Record<string, string> = {};
  before(async () => {
    // The record bucket small enough to reach in a test: 30 calls at once, then one in 100 s.
    club = await startClub({
      rateLimits: {
        token: { perSecond: 0, burst: 1 },
        anonymous: { perSecond: 0, burst: 1 },
        record: { perSecond: 0.01, burst: 30 },
      },
    });
    for (const h of ['alice', 'bob']) tokens[h] = (await club.addMember(h)).token;
    tokens['alice2'] = await second('alice');
  });
  after(() => club.close());

  /** A second token of the same principal. */
  async function second(handle: string): Promise<string> {
    const { issueAgentToken } = await import('../../src/admin/tokens.ts');
    return (
      await issueAgentToken(club.store, club.registry, handle, { scopes: 'evidence:write', label: 'two' })
    ).token;
  }

  it('threat: ask_agent: hide the addressee after a long question', async () => {
    const client = await club.connect(tokens['bob']);
    const question = `${'Would you lend me your notes? '.repeat(40)}end`;
    assert.ok(question.length > 1_000);
    // The official client sends the arguments in the order given: the question first.
    await client.callTool({ name: 'ask_agent', arguments: { question, to: 'alice' } });
    const [row] = await recordOf(club, 'bob');
    assert.equal(forHumans(row!.tool), 'ask_agent');
    const shown = text(row!);
    assert.ok(shown.startsWith('to: "alice", question: "Would you lend'), shown);
    assert.match(shown, /… \(\+\d+ characters\)$/, 'the cut question says it was cut');
  });

  it('threat: transport: evict the record by flooding it with calls', async () => {
    const calls = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        jsonrpc: '2.0',
        id: from + i,
        method: 'tools/call',
        params: { name: 'file_evidence', arguments: { origin: 'manual', claim: `c${from + i}` } },
      }));
    const post = (token: string, body: unknown) =>
      rawPost(club.server.mcpUrl, JSON.stringify(body), {
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2025-03-26',
      });
    // The principal's other agent makes one call; then this agent floods, batches and singles.
    assert.equal((await post(tokens['alice2']!, calls(0, 1)[0])).status, 200);
    const first = (await recordOf(club, 'alice')).map(text);
    assert.equal(first.length, 1);
    const spy = spyOnHandler(club.registry, 'file_evidence');
    const answers: Response[] = [];
    for (let k = 0; k < 5; k++) answers.push(await post(tokens['alice']!, calls(100 + k * 10, 10)));
    for (let k = 0; k < 5; k++) answers.push(await post(tokens['alice']!, calls(200 + k, 1)[0]));
    const statuses = answers.map((r) => r.status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    const slowed = (await answers[3]!.json()) as {
      error: { message: string; data: { reason: string; limit: string; retry_after_seconds: number } };
    };
    assert.equal(slowed.error.data.reason, 'rate_limited');
    assert.equal(slowed.error.data.limit, 'record');
    assert.ok(slowed.error.data.retry_after_seconds >= 100);
    assert.match(slowed.error.message, /may put 30 tool calls a day on its principal's Activity record/);
    assert.equal(answers[3]!.headers.get('retry-after'), String(slowed.error.data.retry_after_seconds));
    assert.equal(spy.calls, 30, 'the slowed calls never ran');
    const record = (await recordOf(club, 'alice')).map(text);
    assert.equal(record.length, 31, 'every call that ran is there, and nothing was evicted');
    assert.equal(record.at(-1), first[0], 'the other agent’s call is still on the record');
  });
});
