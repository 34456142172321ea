// The activity record across replicas: two real `warden serve` processes on one store
// (a SQLite file; a PostgreSQL schema when WARDEN_TEST_PG is set), calls spread over both
// and answered before their rows are written, then both stopped as an operator stops
// them (SIGTERM) the moment the last answer arrives: every call is on the record, once.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import type { ActivityRecord, Store } from '../../src/store/contract.ts';
import { openStore } from '../../src/store/index.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { forHumans } from '../../src/untrusted/index.ts';
import { ALL_AGENT_SCOPES, rawPost } from '../helpers/club.ts';
import { PgSchemas } from '../store/pg-schemas.ts';

const BIN = fileURLToPath(new URL('../../bin/warden.js', import.meta.url));
/** Tokens × calls per token: within each replica's per-token burst (60), so none is rate limited. */
const TOKENS = 4;
const CALLS = 50;

const pgUrl = process.env['WARDEN_TEST_PG'];
const pg = pgUrl ? new PgSchemas(pgUrl) : null;
const dir = mkdtempSync(join(tmpdir(), 'warden-activity-'));
after(async () => {
  await pg?.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

async function startReplica(db: string): Promise<{ mcpUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json'], {
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

function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** One tools/call over HTTP; whether it was refused, and with which code. */
async function call(url: string, token: string, name: string, args: Record<string, unknown>) {
  const r = await rawPost(
    url,
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    { authorization: `Bearer ${token}` },
  );
  const text = await r.text();
  assert.equal(r.status, 200, text);
  const body = JSON.parse(text.replace(/^event: message\ndata: /, '')) as {
    result: { isError?: boolean; _meta?: { 'warden/refusal'?: { code: string } } };
  };
  return body.result._meta?.['warden/refusal']?.code ?? null;
}

async function everything(store: Store, principalId: string): Promise<ActivityRecord[]> {
  const seen: ActivityRecord[] = [];
  let after: number | undefined;
  for (;;) {
    const rows = await store.pageActivity(principalId, {}, { limit: 100, ...(after ? { after } : {}) });
    seen.push(...rows);
    if (rows.length < 100) return seen;
    after = rows[99]!.seq;
  }
}

for (const [backend, location] of [
  ['SQLite (one file, three connections)', async () => join(dir, `shared-${Date.now()}.db`)],
  ['PostgreSQL', async () => (pg ? pg.fresh() : null)],
] as const) {
  void describe(`activity on two warden serve processes on ${backend}`, () => {
    void it('loses no call: each is recorded once, though both stop the moment the last answer arrives', async (t) => {
      const db = await location();
      if (!db) return t.skip('WARDEN_TEST_PG is not set: PostgreSQL not tested');
      const store = await openStore(db);
      const registry = buildRegistry();
      const alice = await addPrincipal(store, 'alice', { status: 'member' });
      const tokens: string[] = [];
      for (let i = 0; i < TOKENS; i++)
        tokens.push(
          (await issueAgentToken(store, registry, 'alice', { scopes: ALL_AGENT_SCOPES, label: `agent ${i}` }))
            .token,
        );
      const replicas = [await startReplica(db), await startReplica(db)];
      try {
        // A call answered by one replica is on the record for every reader within moments.
        const first = Date.now();
        assert.equal(await call(replicas[0]!.mcpUrl, tokens[0]!, 'club_info', {}), null);
        while ((await store.pageActivity(alice.id, {}, { limit: 1 })).length === 0) {
          assert.ok(Date.now() - first < 2_000, 'not on the record within 2 s');
          await new Promise((r) => setTimeout(r, 10));
        }
        t.diagnostic(`written and read through another connection after ${Date.now() - first} ms`);
        // Even calls file evidence (done), odd ones ask for a profile that is not there (refused).
        const codes = await Promise.all(
          Array.from({ length: TOKENS * CALLS }, (_, n) => {
            const url = replicas[n % 2]!.mcpUrl;
            const token = tokens[Math.floor(n / 2) % TOKENS]!;
            return n % 2
              ? call(url, token, 'get_profile', { handle: `nobody${n}` })
              : call(url, token, 'file_evidence', { origin: 'manual', claim: `claim ${n}` });
          }),
        );
        assert.deepEqual(
          codes,
          codes.map((_, n) => (n % 2 ? 'not_found' : null)),
        );
      } finally {
        const exits = await Promise.all(replicas.map((r) => stop(r.child)));
        assert.deepEqual(exits, [0, 0]);
      }
      try {
        const rows = await everything(store, alice.id);
        assert.equal(rows.length, TOKENS * CALLS + 1);
        // Numbered 1…n once each, though two processes wrote them.
        assert.deepEqual(
          rows.map((r) => r.seq),
          rows.map((_, i) => i + 1),
        );
        const summaries = new Set(rows.map((r) => (r.summary ? forHumans(r.summary) : '')));
        for (let n = 0; n < TOKENS * CALLS; n++) {
          const expected = n % 2 ? `handle: "nobody${n}"` : `origin: "manual", claim: "claim ${n}"`;
          assert.ok(summaries.has(expected), `call ${n} is not on the record`);
        }
        const refused = rows.filter((r) => r.outcome === 'refused');
        assert.equal(refused.length, (TOKENS * CALLS) / 2);
        assert.ok(refused.every((r) => r.code === 'not_found' && forHumans(r.tool) === 'get_profile'));
      } finally {
        await store.close();
      }
    });
  });
}
