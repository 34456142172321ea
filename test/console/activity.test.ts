// The Activity page: every tools/call made with a principal's tokens, as real agents make
// them over HTTP, on the page of the signed-in principal at the very next request; per
// token, paged newest first, bounded by age, never another principal's, never an agent's.
import assert from 'node:assert/strict';
import { CODES } from '../../src/console/glossary.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { changeMandate } from '../../src/admin/mandate.ts';
import type { NewActivity } from '../../src/store/contract.ts';
import type { SqlStore } from '../../src/store/sql-store.ts';
import { startHttpServer, silentLogger } from '../../src/server/index.ts';
import { connectClient, ok, refused } from '../helpers/club.ts';
import { startConsoleClub, Visitor, type ConsoleClub } from '../helpers/console.ts';

/** A page's text with the escapes the html tag writes undone, for matching what a person reads. */
const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#61;/g, '=')
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** The rows of the page's table, as text. */
const rows = (page: string) => [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((m) => m[1]!);
const nextLink = (page: string) => /<a href="([^"]+)" rel="next"/.exec(page)?.[1];

void describe('the Activity page: what a principal’s agents did', () => {
  let club: ConsoleClub;
  let alice: Visitor;
  let bob: Visitor;
  const tokens: Record<string, { token: string; tokenId: string }> = {};

  before(async () => {
    // A call's answer leaves once its row is committed: the page shows it at the next request.
    club = await startConsoleClub();
    for (const h of ['alice', 'bob', 'carol', 'dave']) await club.add(h, 'member');
    // Consulting anyone but bob waits for alice.
    await changeMandate({ store: club.store, registry: club.registry }, 'alice', {
      consultCounterparts: 'bob',
    });
    tokens['laptop'] = await club.issue('alice', undefined, 'laptop');
    tokens['phone'] = await club.issue('alice', undefined, 'phone');
    tokens['bob'] = await club.issue('bob', undefined, 'bob-agent');
    tokens['dave'] = await club.issue('dave', undefined, 'dave-agent');
    alice = new Visitor(club.base);
    await alice.signInWith(await club.link('alice'));
    bob = new Visitor(club.base);
    await bob.signInWith(await club.link('bob'));
  });
  after(() => club.close());

  const page = async (v: Visitor, path = '/console/activity') => {
    const res = await v.get(path);
    return { status: res.status, text: await res.text() };
  };

  void it('shows a refused and a queued call at the next request: the refusal in words, the decision linked', async () => {
    const agent = await club.connect(tokens['laptop']!.token);
    const no = await refused(agent, 'file_evidence', { origin: 'commit', claim: 'shipped <b>it</b>' });
    assert.equal(no.code, 'claim_without_artifact');
    const queued = await ok<{ decision_id: string }>(agent, 'ask_agent', { to: 'carol', question: 'Lunch?' });
    await ok(agent, 'club_info');
    // No wait: the page is asked for as soon as the agent has its answers.
    const { status, text } = await page(alice);
    assert.equal(status, 200);
    const [done, ask, evidence] = rows(text);
    // Each act in words; the tool's id only inside the details disclosure.
    assert.match(done!, /read what the club is/);
    assert.match(done!, /done/);
    assert.match(done!, /<details class="technical">[\s\S]*<code>club_info<\/code>/);
    assert.match(ask!, /asked @carol a question/);
    assert.match(ask!, /waiting for you/);
    assert.ok(ask!.includes(CODES.counterpart_not_in_mandate!.said), 'the reason in words, to the member');
    assert.ok(ask!.includes(CODES.counterpart_not_in_mandate!.todo), 'and what they can do');
    assert.ok(ask!.includes(`/console/decisions#d-${queued.decision_id}`), 'linked to its decision');
    assert.ok(unescape(ask!).includes('to: "carol", question: "Lunch?"'), 'what it sent, for a person');
    assert.match(evidence!, /filed evidence in your name/);
    assert.match(evidence!, /refused/);
    assert.ok(evidence!.includes(CODES.claim_without_artifact!.said), 'the refusal in words');
    assert.match(evidence!, /<details class="technical">[\s\S]*<code>claim_without_artifact<\/code>/);
    // The agent's words are data: escaped, never markup.
    assert.ok(evidence!.includes('shipped &lt;b&gt;it&lt;/b&gt;'));
    assert.ok(!evidence!.includes('<b>it'));
    for (const row of [done, ask, evidence]) assert.match(row!, /laptop/);
    assert.match(text, /<time datetime="/, 'the time as a person reads it');
  });

  void it('records a tool the token cannot call as refused, not_found, in the name the agent sent', async () => {
    const agent = await club.connect(tokens['laptop']!.token);
    // Hidden from every agent, and one that never existed: the agent is told the same.
    for (const name of ['set_mandate', 'no_such_<tool>'])
      await assert.rejects(agent.callTool({ name, arguments: {} }), /not found/);
    const [nothing, hidden] = rows((await page(alice)).text);
    assert.ok(nothing!.includes('no_such_&lt;tool&gt;'));
    // To the member, the two are told apart: one does not exist, the other the agent may not use.
    assert.match(nothing!, /asked for something the club does not have/);
    assert.match(hidden!, /Your agent tried to change your mandate\. No agent may/);
    for (const row of [nothing, hidden])
      assert.match(row!, /<details class="technical">[\s\S]*<code>not_found<\/code>/);
  });

  void it('records a call the SDK path serves as it records one the fast path serves', async () => {
    const sdkOnly = await startHttpServer({
      store: club.store,
      registry: club.registry,
      logger: silentLogger,
      version: 'test',
      port: 0,
      fastPath: false,
    });
    try {
      const agent = await connectClient(sdkOnly.mcpUrl, tokens['laptop']!.token, 'modern');
      await refused(agent, 'file_evidence', { origin: 'calendar', claim: 'sdk-path-marker' });
      await agent.close();
    } finally {
      await sdkOnly.close();
    }
    const [row] = rows((await page(alice)).text);
    assert.match(row!, /sdk-path-marker/);
    assert.ok(row!.includes('<code>claim_without_artifact</code>'));
  });

  void it('lists one token’s calls when asked, linked from the tokens page; another’s token is not found', async () => {
    const phone = await club.connect(tokens['phone']!.token);
    await ok(phone, 'get_profile', { handle: 'bob' });
    const mine = await page(alice, `/console/activity?token=${tokens['phone']!.tokenId}`);
    assert.equal(mine.status, 200);
    assert.equal(rows(mine.text).length, 1);
    assert.match(rows(mine.text)[0]!, /get_profile/);
    assert.match(mine.text, /Calls made with <span class="label">phone<\/span>/);
    const all = rows((await page(alice)).text);
    assert.match(all[0]!, /get_profile/);
    assert.ok(all.some((r) => /file_evidence/.test(r)));
    const listed = (await page(alice, '/console/tokens')).text;
    for (const t of ['laptop', 'phone'])
      assert.ok(unescape(listed).includes(`/console/activity?token=${tokens[t]!.tokenId}`), t);
    const theirs = await page(alice, `/console/activity?token=${tokens['bob']!.tokenId}`);
    assert.equal(theirs.status, 404);
    assert.match(theirs.text, /not one of yours/);
    assert.equal(rows(theirs.text).length, 0);
  });

  void it('never shows one principal another’s activity', async () => {
    const agent = await club.connect(tokens['bob']!.token);
    await ok(agent, 'file_evidence', { origin: 'manual', claim: 'bob-only-marker' });
    assert.ok(!(await page(alice)).text.includes('bob-only-marker'));
    const theirs = (await page(bob)).text;
    assert.ok(theirs.includes('bob-only-marker'));
    assert.ok(!theirs.includes('laptop') && !theirs.includes('Lunch?'));
  });

  void it('pages newest first by keyset: every call once, each page read from an index', async () => {
    const dave = (await club.store.getPrincipalByHandle('dave'))!;
    const start = Date.now() - 3_600_000;
    const calls: NewActivity[] = Array.from({ length: 75 }, (_, n) => ({
      principalId: dave.id,
      tokenId: tokens['dave']!.tokenId,
      tool: 'club_info',
      outcome: 'done',
      code: null,
      decisionId: null,
      summary: `n: ${n}`,
      at: new Date(start + n * 1000).toISOString(),
    }));
    // One past the age bound: never shown.
    calls.push({ ...calls[0]!, summary: 'n: "old"', at: '2000-01-01T00:00:00.000Z' });
    // Not awaited: written by the first page read, within the minute the batch would wait.
    const recorded = club.store.recordActivity(calls);
    const v = new Visitor(club.base);
    await v.signInWith(await club.link('dave'));
    const seen: string[] = [];
    let path: string | undefined = '/console/activity';
    for (let pages = 0; path && pages < 10; pages++) {
      const { status, text } = await page(v, path);
      assert.equal(status, 200);
      const here = rows(text);
      assert.ok(here.length <= 30, `${here.length} rows on a page`);
      seen.push(...here.map((r) => /n: (\d+|&quot;old&quot;)/.exec(r)![1]!));
      path = nextLink(text) && unescape(nextLink(text)!);
      if (path) assert.match(path, /^\/console\/activity\?after=/);
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 75 }, (_, n) => String(74 - n)),
    );
    await recorded;
  });

  void it('records no call without a principal, and nothing at all for a signed-out visitor', async () => {
    const sql = (club.store as SqlStore).sql;
    const before = Number((await sql.get('SELECT COUNT(*) AS n FROM activity'))!['n']);
    const anonymous = await club.connect();
    await ok(anonymous, 'club_info');
    await club.store.pageActivity('flush', {}, { limit: 1 });
    assert.equal(Number((await sql.get('SELECT COUNT(*) AS n FROM activity'))!['n']), before);
    const res = await new Visitor(club.base).get('/console/activity');
    assert.notEqual(res.status, 200);
    assert.ok(!(await res.text()).includes('club_info'));
  });

  void it('is never read by an agent: no tool answers with any of it', async () => {
    const canary = 'activity-canary-5b1e';
    const agent = await club.connect(tokens['laptop']!.token);
    await refused(agent, 'file_evidence', { origin: 'commit', claim: canary });
    await assert.rejects(agent.callTool({ name: canary, arguments: {} }));
    assert.ok((await page(alice)).text.includes(canary), 'it is on the record');
    // Every tool the token sees, with arguments it accepts where it needs some.
    const args: Record<string, Record<string, unknown>> = {
      get_profile: { handle: 'alice' },
      list_decisions: { status: 'all' },
    };
    const { tools } = await agent.listTools();
    assert.ok(tools.length >= 10);
    for (const t of tools) {
      const answer = JSON.stringify(await agent.callTool({ name: t.name, arguments: args[t.name] ?? {} }));
      assert.ok(!answer.includes(canary), `${t.name} answers with the activity record`);
    }
    // And no tool's code can: only the console reads the record.
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    for (const f of files(join(process.cwd(), 'src/tools')))
      assert.doesNotMatch(readFileSync(f, 'utf8'), /pageActivity|ActivityRecord/, f);
  });
});
