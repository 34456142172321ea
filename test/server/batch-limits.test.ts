import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { changeMandate } from '../../src/admin/mandate.ts';
import { MAX_BATCH_MESSAGES } from '../../src/server/steps/messages.ts';
import { rawPost, spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';

/** A 2025-03-26 tools/call of file_evidence, the revision that still had batches. */
const evidence = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'file_evidence', arguments: { origin: 'manual', claim: `Did thing ${id}.` } },
});

const OLD = { 'mcp-protocol-version': '2025-03-26' };

interface Sent {
  status: number;
  body: string;
}

async function post(club: TestClub, token: string, body: unknown, headers = OLD): Promise<Sent> {
  const r = await rawPost(club.server.mcpUrl, JSON.stringify(body), {
    authorization: `Bearer ${token}`,
    ...headers,
  });
  return { status: r.status, body: await r.text() };
}

async function evidenceOf(club: TestClub, handle: string): Promise<number> {
  const p = await club.store.getPrincipalByHandle(handle);
  return (await club.store.listEvidence(p!.id)).length;
}

async function activityOf(club: TestClub, handle: string): Promise<number> {
  const p = await club.store.getPrincipalByHandle(handle);
  return (await club.store.pageActivity(p!.id, {}, { limit: 1000, newestFirst: true })).length;
}

/**
 * At the default limits (10 a second, bursts of 60 per token), as fast as one client goes.
 * The bound on what any sender may get through in `ms`: the burst, and the refill since.
 */
const allowed = (ms: number) => 60 + Math.ceil((10 * ms) / 1000) + 1;

describe('limits count messages, not HTTP requests (default limits, real HTTP)', () => {
  let club: TestClub;
  const tokens: Record<string, string> = {};
  before(async () => {
    club = await startClub();
    for (const h of ['single', 'hundreds', 'tens', 'mixed', 'asker', 'askee'])
      tokens[h] = (await club.addMember(h)).token;
    // The flood compares what gets written: these principals let their agents file
    // self-reports without them (by default each one waits for the principal).
    for (const h of ['single', 'hundreds', 'tens'])
      await changeMandate({ store: club.store, registry: club.registry }, h, {
        selfReportsNeedApproval: 'false',
      });
  });
  after(() => club.close());

  it('threat: transport: flood file_evidence through JSON-RPC batches', async () => {
    // What single requests get through: 100 POSTs of one call each, all at once.
    let t0 = performance.now();
    const one = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(club, tokens['single']!, evidence(i + 1))),
    );
    const singles = one.filter((s) => s.status === 200).length;
    const singleMs = performance.now() - t0;
    assert.equal(await evidenceOf(club, 'single'), singles);
    assert.ok(singles <= allowed(singleMs), `singles ${singles} in ${singleMs} ms`);

    // Batches of the largest size allowed get through no more than single requests do.
    t0 = performance.now();
    let served = 0;
    let refused = 0;
    const tens = await Promise.all(
      Array.from({ length: 30 }, (_, k) =>
        post(
          club,
          tokens['tens']!,
          Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) => evidence(k * 10 + i + 1)),
        ),
      ),
    );
    for (const sent of tens) {
      if (sent.status === 200) served++;
      else {
        assert.equal(sent.status, 429);
        const answer = JSON.parse(sent.body) as { error: { message: string; data: { reason: string } } };
        assert.equal(answer.error.data.reason, 'rate_limited');
        assert.match(
          answer.error.message,
          /every message of a batch counts as one\.( This request holds 10 messages, and each counts\.)? Retry after \d+ s/,
        );
        refused++;
      }
    }
    const tensMs = performance.now() - t0;
    const written = await evidenceOf(club, 'tens');
    assert.equal(written, served * MAX_BATCH_MESSAGES, 'a batch runs whole or not at all');
    assert.ok(refused > 0);
    assert.ok(written <= allowed(tensMs), `batched ${written} in ${tensMs} ms`);
    assert.ok(written <= singles + Math.ceil((10 * Math.max(0, tensMs - singleMs)) / 1000) + 10);
    assert.ok(written <= 100, 'no more than 100 single requests could have');
    // Every message of a batch is on the principal's record, one row each.
    assert.equal(await activityOf(club, 'tens'), written);
  });

  it('threat: transport: send a batch of 100 calls in one POST', async () => {
    // 3 POSTs of 100 batched calls: refused whole, before any of them runs.
    const spy = spyOnHandler(club.registry, 'file_evidence');
    for (let k = 0; k < 3; k++) {
      const batch = Array.from({ length: 100 }, (_, i) => evidence(k * 100 + i + 1));
      const sent = await post(club, tokens['hundreds']!, batch);
      assert.equal(sent.status, 413);
      const answer = JSON.parse(sent.body) as {
        error: { code: number; message: string; data: { reason: string } };
      };
      assert.equal(answer.error.code, -32600);
      assert.equal(answer.error.data.reason, 'batch_too_large');
      assert.match(answer.error.message, /holds 100 messages.*at most 10.*Nothing in it ran/);
    }
    assert.equal(spy.calls, 0, 'no call of a refused batch ran');
    assert.equal(await evidenceOf(club, 'hundreds'), 0);
  });

  it('each question of a batch counts toward the daily question limit, and each is on the record', async () => {
    await changeMandate({ store: club.store, registry: club.registry }, 'asker', { consultDaily: '3' });
    const ask = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'ask_agent', arguments: { to: 'askee', question: `Question ${id}?` } },
    });
    const sent = await post(club, tokens['asker']!, [1, 2, 3, 4, 5].map(ask));
    assert.equal(sent.status, 200);
    const askee = await club.store.getPrincipalByHandle('askee');
    const inbox = await club.store.pageQuestions({ targetId: askee!.id }, { limit: 50 });
    assert.equal(inbox.length, 3, 'three delivered, as three single requests would be');
    const record = await club.store.pageActivity(
      (await club.store.getPrincipalByHandle('asker'))!.id,
      {},
      { limit: 50, newestFirst: true },
    );
    assert.equal(record.length, 5);
    assert.deepEqual(record.map((r) => r.outcome).sort(), ['done', 'done', 'done', 'queued', 'queued']);
    assert.ok(record.filter((r) => r.outcome === 'queued').every((r) => r.code === 'daily_question_limit'));
  });

  it('a batch and single requests share one bucket: the batch spends what the singles then lack', async () => {
    const spy = spyOnHandler(club.registry, 'file_evidence');
    const start = performance.now();
    let served = 0;
    // Six batches of ten spend the burst of sixty…
    for (let k = 0; k < 6; k++) {
      const batch = Array.from({ length: 10 }, (_, i) => evidence(k * 10 + i + 1));
      if ((await post(club, tokens['mixed']!, batch)).status === 200) served += 10;
    }
    assert.ok(served >= 50, `served ${served}`);
    // …so a burst of single requests right after finds the bucket nearly empty.
    const t0 = performance.now();
    const after = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(club, tokens['mixed']!, evidence(1000 + i))),
    );
    const singles = after.filter((s) => s.status === 200).length;
    assert.ok(singles < 40 || performance.now() - t0 > 2000, `singles ${singles}`);
    assert.ok(served + singles <= allowed(performance.now() - start), `${served} + ${singles}`);
    assert.equal(spy.calls, served + singles);
  });
});
