import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';
import { CASES, footprint, type CaseContext } from './cases.ts';
import { CLIENTS, type Session, type Target, type Transport } from './clients.ts';

/**
 * The client matrix: every client people run (SDK 1.x, SDK 2.x in both protocol
 * eras, the Inspector's CLI) over Streamable HTTP and stdio, at each tier: list the
 * tools, then call every one once with a success and once with a refusal (the
 * Inspector over stdio: the few tools its `stdioTools` names, see clients.ts). The
 * refusal's code and reason must reach the caller's code as data, in every client;
 * a refused call must leave the store as it was, and over HTTP an argument refusal
 * must never reach the handler. The table it prints is the one in the closing note.
 */

interface Tier {
  tier: 'anonymous' | 'candidate' | 'member';
  expected: number;
  token?: string;
  me?: { id: string; handle: string };
}

interface Row {
  client: string;
  transport: Transport;
  tier: string;
  tools: number;
  called: number;
  successes: number;
  refusals: number;
}

describe('client matrix: every client hears the refusal', () => {
  let club: TestClub;
  let tiers: Tier[];
  let other: { id: string; handle: string };
  const spies: Record<string, { calls: number }> = {};
  const rows: Row[] = [];

  before(async () => {
    // Rate limits off: every client calls every tool twice with one token, and on a quick
    // machine that outruns the per-token rate after its burst (a 429 is not what is tested here).
    const off = { perSecond: 0, burst: 1 };
    club = await startClub({ rateLimits: { token: off, anonymous: off } });
    const principal = async (handle: string) => {
      const p = await club.store.getPrincipalByHandle(handle);
      return { id: p!.id, handle };
    };
    const mia = await club.addMember('mia');
    const cody = await club.addCandidate('cody');
    await club.addMember('nina');
    other = await principal('nina');
    tiers = [
      { tier: 'anonymous', expected: 3 },
      { tier: 'candidate', expected: 10, token: cody.token, me: await principal('cody') },
      { tier: 'member', expected: 14, token: mia.token, me: await principal('mia') },
    ];
    for (const t of club.registry.all()) spies[t.spec.name] = spyOnHandler(club.registry, t.spec.name);
  });

  after(async () => {
    await club.close();
    if (rows.length === 0) return;
    const lines = [
      '| client | transport | tier | tools seen | success calls | refusal reason received |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.client} | ${r.transport} | ${r.tier} | ${r.tools} | ${r.successes}/${r.called} | ${r.refusals}/${r.called} |`,
      ),
    ];
    // The closing table, from this run.
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  });

  for (const client of CLIENTS) {
    for (const transport of ['http', 'stdio'] as const) {
      it(`${client.name} over ${transport}`, { timeout: 600_000 }, async () => {
        const only = transport === 'stdio' ? client.stdioTools : undefined;
        const called = new Set<string>();
        for (const tier of tiers) {
          const target: Target = {
            transport,
            url: club.server.mcpUrl,
            db: join(club.dir, 'club.db'),
            ...(tier.token ? { token: tier.token } : {}),
          };
          const session = await client.open(target);
          try {
            rows.push(await exercise(session, client.name, client.parallel, transport, tier, only, called));
          } finally {
            await session.close();
          }
        }
        if (only)
          assert.deepEqual([...called].sort(), [...only].sort(), 'every tool named for stdio was called');
      });
    }
  }

  /**
   * Successes first, then the refusals (which write nothing, so the footprint taken
   * around all of them must not move). Calls run a few at a time: the Inspector
   * starts a process per call, and over stdio a Warden per call too. `only` limits
   * the calls to the tools it names (the tools/list is still the tier's whole list);
   * each tool called is added to `called`.
   */
  async function exercise(
    session: Session,
    name: string,
    width: number,
    transport: Transport,
    tier: Tier,
    only: readonly string[] | undefined,
    called: Set<string>,
  ): Promise<Row> {
    const where = (tool: string) => `${name} / ${transport} / ${tier.tier} / ${tool}`;
    const tools = await session.listTools();
    assert.equal(tools.length, tier.expected, `${where('tools/list')}: ${tools.join(', ')}`);
    const ctx: CaseContext = { store: club.store, other, ...(tier.me ? { me: tier.me } : {}) };
    for (const tool of tools) assert.ok(CASES[tool], `${where(tool)}: no case for this tool`);
    const calls = only ? tools.filter((t) => only.includes(t)) : tools;
    assert.ok(calls.length > 0, `${where('*')}: no tool to call`);
    for (const tool of calls) called.add(tool);

    const successes = await inParallel(calls, width, async (tool) => {
      const ok = await session.callTool(tool, await CASES[tool]!.success(ctx));
      assert.equal(ok.isError, false, `${where(tool)} success: ${ok.text}`);
      assert.equal(typeof ok.structured, 'object', `${where(tool)}: structured content`);
      if ((ok.structured as { status?: string }).status === 'queued_for_principal')
        assert.match(ok.text, /^Queued for your principal \([a-z_]+\): .+\nNext: /, where(tool));
    });

    const before = await footprint(club.store, tier.me?.id);
    const handled = Object.fromEntries(calls.map((t) => [t, spies[t]!.calls]));
    const refusals = await inParallel(calls, width, async (tool) => {
      const expected = CASES[tool]!.refusal;
      const r = await session.callTool(tool, expected.args);
      assert.equal(r.isError, true, `${where(tool)} refusal: ${r.text}`);
      assert.equal(r.structured, undefined, `${where(tool)}: no structuredContent on a refusal`);
      assert.ok(r.refusal, `${where(tool)}: the refusal reached the caller as data`);
      assert.equal(r.refusal.code, expected.code, where(tool));
      assert.ok(r.refusal.reason.length > 10 && r.refusal.next.length > 5, where(tool));
      assert.equal(r.text, `Refused (${r.refusal.code}): ${r.refusal.reason}\nNext: ${r.refusal.next}`);
      if (transport === 'http' && expected.code === 'invalid_arguments')
        assert.equal(spies[tool]!.calls, handled[tool], `${where(tool)}: the handler never ran`);
    });
    assert.equal(
      await footprint(club.store, tier.me?.id),
      before,
      `${where('*')}: the refusals wrote nothing`,
    );
    return {
      client: name,
      transport,
      tier: tier.tier,
      tools: tools.length,
      called: calls.length,
      successes,
      refusals,
    };
  }
});

/** Runs `fn` over the items, `width` at a time; resolves to how many completed. */
async function inParallel<T>(
  items: readonly T[],
  width: number,
  fn: (item: T) => Promise<void>,
): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      await fn(items[next++]!);
      done++;
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return done;
}
