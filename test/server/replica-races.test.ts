import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { changeMandate } from '../../src/admin/mandate.ts';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import type { Store } from '../../src/store/contract.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { ALL_AGENT_SCOPES, rawPost } from '../helpers/club.ts';
import { PgSchemas } from '../store/pg-schemas.ts';

/**
 * Limits hold in the store, not in a process: several real `warden serve`
 * processes on one store (SQLite file, PostgreSQL), concurrent requests spread
 * over all of them, and each limit still lets exactly what it allows through.
 */

const BIN = fileURLToPath(new URL('../../bin/warden.js', import.meta.url));
const REPLICAS = 2;
const TRIALS = 5;

const pgUrl = process.env['WARDEN_TEST_PG'];
const pg = pgUrl ? new PgSchemas(pgUrl) : null;
const dir = mkdtempSync(join(tmpdir(), 'warden-races-'));
after(async () => {
  await pg?.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

interface Replica {
  mcpUrl: string;
  child: ChildProcess;
}

/** Starts `warden serve` on an ephemeral port and reads its URL from the JSON line it prints. */
async function startReplica(db: string, args: string[] = []): Promise<Replica> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', ...args], {
    env: { ...process.env, WARDEN_DB: db },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`warden serve exited with ${code}`)));
  });
  lines.close();
  return { mcpUrl: (JSON.parse(first) as { mcp: string }).mcp, child };
}

async function stop(r: Replica): Promise<void> {
  if (r.child.exitCode !== null) return;
  const exited = new Promise((resolve) => r.child.once('exit', resolve));
  r.child.kill('SIGTERM');
  await exited;
}

type Structured = Record<string, unknown> & { refusal?: { code: string } };

/** One tools/call over real HTTP (2025-11-25), returning the structured content. */
async function callTool(url: string, token: string, name: string, args: Record<string, unknown>) {
  const r = await rawPost(
    url,
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    { authorization: `Bearer ${token}` },
  );
  const text = await r.text();
  const body = JSON.parse(text.replace(/^event: message\ndata: /, '')) as {
    result?: { structuredContent?: Structured; isError?: boolean; _meta?: Record<string, unknown> };
  };
  if (!body.result) throw new Error(`${name}: ${text}`);
  // A refusal carries no structuredContent: it is data under _meta["warden/refusal"].
  if (body.result.isError) return { refusal: body.result._meta?.['warden/refusal'] } as Structured;
  return body.result.structuredContent!;
}

function runCli(args: string[], db: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, WARDEN_DB: db },
      stdio: 'ignore',
    });
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

const backends = [
  ['SQLite', async () => join(dir, `races-${Date.now()}.db`)],
  ['PostgreSQL', async () => (pg ? pg.fresh() : null)],
] as const;

for (const [backend, location] of backends) {
  describe(`limits across ${REPLICAS} warden serve processes on ${backend}`, () => {
    let db: string | null = null;
    let store: Store;
    const registry = buildRegistry();
    let replicas: Replica[] = [];
    let seq = 0;

    const member = async (prefix: string, scopes = ALL_AGENT_SCOPES) => {
      const handle = `${prefix}${++seq}`;
      await addPrincipal(store, handle, { status: 'member' });
      return { handle, token: (await issueAgentToken(store, registry, handle, { scopes })).token };
    };
    const urlFor = (i: number) => replicas[i % replicas.length]!.mcpUrl;

    const ready = async (t: { skip: (m: string) => void }) => {
      if (db) return true;
      const where = await location();
      if (!where) {
        t.skip('WARDEN_TEST_PG is not set');
        return false;
      }
      db = where;
      store = await openStore(db);
      replicas = await Promise.all(Array.from({ length: REPLICAS }, () => startReplica(where)));
      return true;
    };
    after(async () => {
      await Promise.all(replicas.map(stop));
      await store?.close();
    });

    it('the daily question limit: 30 concurrent asks under a limit of 3 let exactly 3 through', async (t) => {
      if (!(await ready(t))) return;
      const through: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const asker = await member('asker');
        const target = await member('target');
        await changeMandate({ store, registry }, asker.handle, {
          consultCounterparts: 'any',
          consultDaily: '3',
        });
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            callTool(urlFor(i), asker.token, 'ask_agent', { to: target.handle, question: `q${i}` }),
          ),
        );
        const p = await store.getPrincipalByHandle(asker.handle);
        const stored = (await store.listQuestions({ askerId: p!.id })).length;
        through.push(stored);
        assert.equal(results.filter((r) => r['status'] === 'asked').length, stored);
        assert.equal(results.filter((r) => r['status'] === 'queued_for_principal').length, 30 - stored);
      }
      t.diagnostic(
        `${TRIALS} trials of 30 concurrent asks (limit 3): questions written per trial ${JSON.stringify(through)}`,
      );
      assert.deepEqual(through, Array(TRIALS).fill(3));
    });

    it('shared rate limits: 40 concurrent requests of one token over both replicas, burst 5, let exactly 5 through', async (t) => {
      if (!(await ready(t))) return;
      // Refill of one request per 1,000 s: nothing refills during the test, however slow.
      const limits = ['--token-rate', '0.001', '--token-burst', '5'];
      const flood = async (group: Replica[]) => {
        const { token } = await member('flood');
        const statuses = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            rawPost(
              group[i % group.length]!.mcpUrl,
              JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list', params: {} }),
              { authorization: `Bearer ${token}` },
            ).then(async (r) => (await r.text(), r.status)),
          ),
        );
        return {
          ok: statuses.filter((s) => s === 200).length,
          limited: statuses.filter((s) => s === 429).length,
        };
      };
      const own = await Promise.all(Array.from({ length: REPLICAS }, () => startReplica(db!, limits)));
      const shared = await Promise.all(
        Array.from({ length: REPLICAS }, () => startReplica(db!, [...limits, '--shared-rate-limits'])),
      );
      try {
        const perReplica = await flood(own);
        const inStore: { ok: number; limited: number }[] = [];
        for (let trial = 0; trial < TRIALS; trial++) inStore.push(await flood(shared));
        t.diagnostic(
          `per-replica buckets: ${perReplica.ok} of 40 through; shared buckets, ${TRIALS} trials: ${JSON.stringify(inStore.map((r) => r.ok))} through`,
        );
        assert.equal(perReplica.ok, 5 * REPLICAS, 'each replica has its own bucket without the flag');
        assert.deepEqual(inStore, Array(TRIALS).fill({ ok: 5, limited: 35 }));
      } finally {
        await Promise.all([...own, ...shared].map(stop));
      }
    });

    it('one review per reviewer and candidate: 20 concurrent reviews record exactly one', async (t) => {
      if (!(await ready(t))) return;
      const recorded: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const reviewer = await member('reviewer');
        await changeMandate({ store, registry }, reviewer.handle, { reviewsNeedApproval: 'false' });
        const candidate = `cand${++seq}`;
        await addPrincipal(store, candidate, { status: 'candidate' });
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            callTool(urlFor(i), reviewer.token, 'review_candidate', {
              handle: candidate,
              verdict: i % 2 ? 'support' : 'oppose',
              note: `note ${i}`,
            }),
          ),
        );
        const c = await store.getPrincipalByHandle(candidate);
        const reviews = await store.listReviews({ candidateId: c!.id });
        recorded.push(reviews.length);
        assert.equal(results.filter((r) => r['status'] === 'recorded').length, reviews.length);
        assert.ok(results.every((r) => r['status'] === 'recorded' || r.refusal?.code === 'conflict'));
      }
      t.diagnostic(
        `${TRIALS} trials of 20 concurrent reviews: reviews recorded per trial ${JSON.stringify(recorded)}`,
      );
      assert.deepEqual(recorded, Array(TRIALS).fill(1));
    });

    it('one answer per question: 20 concurrent answers, exactly one accepted', async (t) => {
      if (!(await ready(t))) return;
      const accepted: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const asker = await member('qa');
        const target = await member('qt');
        const asked = await callTool(urlFor(0), asker.token, 'ask_agent', {
          to: target.handle,
          question: 'Sail?',
        });
        const id = asked['consultation_id'] as string;
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            callTool(urlFor(i), target.token, 'answer_question', { question_id: id, answer: `answer ${i}` }),
          ),
        );
        const ok = results.filter((r) => !r.refusal);
        accepted.push(ok.length);
        assert.ok(results.every((r) => !r.refusal || r.refusal.code === 'already_answered'));
        assert.equal((await store.getQuestion(id))?.status, 'answered');
      }
      t.diagnostic(
        `${TRIALS} trials of 20 concurrent answers: answers accepted per trial ${JSON.stringify(accepted)}`,
      );
      assert.deepEqual(accepted, Array(TRIALS).fill(1));
    });

    it('a decision is decided once: two principals’ consoles approving at once execute it once', async (t) => {
      if (!(await ready(t))) return;
      const executed: number[] = [];
      for (let trial = 0; trial < 2; trial++) {
        const asker = await member('dec');
        const target = await member('dect');
        // A limit of none a day: every question is queued for the principal.
        await changeMandate({ store, registry }, asker.handle, { consultDaily: '0' });
        const queued = await callTool(urlFor(0), asker.token, 'ask_agent', {
          to: target.handle,
          question: 'Tea?',
        });
        assert.equal(queued['status'], 'queued_for_principal');
        const codes = await Promise.all(
          Array.from({ length: 3 }, () =>
            runCli(['admin', 'decisions', 'decide', queued['decision_id'] as string, '--approve'], db!),
          ),
        );
        const p = await store.getPrincipalByHandle(asker.handle);
        const written = (await store.listQuestions({ askerId: p!.id })).length;
        executed.push(written);
        assert.equal(codes.filter((c) => c === 0).length, 1, `exit codes ${codes.join(',')}`);
      }
      t.diagnostic(
        `2 trials of 3 concurrent approvals: requests executed per trial ${JSON.stringify(executed)}`,
      );
      assert.deepEqual(executed, [1, 1]);
    });
  });
}
