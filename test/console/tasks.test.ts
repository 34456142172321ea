// A member's tasks, done in Chromium with a virtual authenticator, starting from the
// overview and following only what the pages say: each is counted in clicks (a click, a
// box ticked, an option chosen; typing is not a click) and held to a maximum. Each state
// a task passes through is read for jargon (a tool id, a code or an HTTP status outside
// a <details> disclosure) and for sideways scrolling at 375 px; the states worth seeing
// are kept at 375 and 1280 px in docs/img/ when WARDEN_SCREENSHOTS=1. On SQLite always; on
// PostgreSQL as well when WARDEN_TEST_PG names a database.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { changeMandate } from '../../src/admin/mandate.ts';
import { forHumans } from '../../src/untrusted/index.ts';
import {
  addVirtualAuthenticator,
  browserSkip,
  launchBrowser,
  SCREENSHOTS,
  startConsoleClub,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';
import { jargonOn } from '../helpers/jargon.ts';
import { codeFor, exchange, listWith, pkce, register } from '../helpers/oauth.ts';
import { PgSchemas } from '../store/pg-schemas.ts';

const skip = browserSkip();
const PG = process.env['WARDEN_TEST_PG'];

/** The most clicks each task may take; the docs (docs/console.md) give the same numbers. */
const MAX_CLICKS = {
  operatorLink: 4,
  signInAndPasskey: 2,
  issueToken: 5,
  decide: 3,
  activity: 5,
  revokeConnection: 3,
} as const;

/** A person at the browser: what they click is counted. */
class Person {
  clicks = 0;
  constructor(readonly page: Page) {}
  async click(target: Locator): Promise<void> {
    await target.click();
    this.clicks++;
  }
  async tick(target: Locator): Promise<void> {
    await target.check();
    this.clicks++;
  }
  async choose(target: Locator, label: string): Promise<void> {
    await target.selectOption({ label });
    this.clicks++;
  }
  /** Counts from here, for the next task. */
  start(): void {
    this.clicks = 0;
  }
}

/** The state a task reached: no jargon, no sideways scrolling at 375 px; kept in docs/img/ when named. */
async function look(page: Page, what: string, shot: string | null): Promise<void> {
  assert.deepEqual(await jargonOn(page), [], `${what}: jargon outside <details>`);
  const dir = join(process.cwd(), 'docs', 'img');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `${what} scrolls sideways by ${wide} px at ${width} px`);
    if (shot) {
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `task-${shot}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const backends: { name: string; shots: boolean }[] = [
  { name: 'SQLite', shots: SCREENSHOTS },
  ...(PG ? [{ name: 'PostgreSQL', shots: false }] : []),
];

for (const backend of backends) {
  void describe(`a member's tasks in Chromium, on ${backend.name}`, { skip }, () => {
    let club: ConsoleClub;
    let browser: Browser;
    let schemas: PgSchemas | null = null;
    let member: Person;
    let operator: Person;
    const shot = (name: string) => (backend.shots ? name : null);
    /** The agent's MCP client, with a token of every permission (issued before the tasks). */
    let laptop: Awaited<ReturnType<ConsoleClub['connect']>>;
    let laptopId: string;
    let research: string;

    before(async () => {
      if (backend.name === 'PostgreSQL') schemas = new PgSchemas(PG!);
      club = await startConsoleClub({}, { oauth: {}, ...(schemas ? { db: await schemas.fresh() } : {}) });
      browser = await launchBrowser();
      await club.add('olga', 'member', { name: 'Olga', operator: true });
      await club.add('alice', 'member', { name: 'Alice' });
      for (const h of ['bob', 'carol']) await club.add(h, 'member');
      await club.add('cleo', 'candidate', { name: 'Cleo' });
      const issued = await club.issue('alice', undefined, 'laptop');
      laptopId = issued.tokenId;
      laptop = await club.connect(issued.token);
      const ctx = await browser.newContext();
      member = new Person(await ctx.newPage());
      await addVirtualAuthenticator(ctx, member.page);
      watchPage(member.page, club.base);
      // The operator signed in earlier, as operators do.
      operator = new Person(await (await browser.newContext()).newPage());
      await operator.page.goto(await club.link('olga'));
      await operator.page.getByRole('button', { name: 'Continue and sign in' }).click();
      await operator.page.waitForURL(/\/console\/passkeys/);
    });
    after(async () => {
      await browser?.close();
      await club?.close();
      await schemas?.dropAll();
    });

    void it('signs in from a link the operator made in the console, and registers a passkey', async (t) => {
      const o = operator;
      await o.page.goto(`${club.base}/console/`);
      o.start();
      await o.click(o.page.getByRole('link', { name: 'Operator' }));
      await o.page.getByLabel('Search by the start of words in handle, name or headline').fill('alice');
      await o.click(o.page.getByRole('button', { name: 'Search' }));
      await o.click(o.page.getByRole('link', { name: '@alice' }));
      await o.click(o.page.getByRole('button', { name: 'Make a sign-in link' }));
      const link = (await o.page.locator('#login-link').innerText()).trim();
      assert.match(link, new RegExp(`^${club.base.replace(/[.:/]/g, '\\$&')}/console/link\\?t=`));
      await look(o.page, 'the operator, a link made', shot('operator-link'));
      t.diagnostic(`operator: ${o.clicks} clicks`);
      assert.ok(o.clicks <= MAX_CLICKS.operatorLink, `${o.clicks} clicks`);

      const m = member;
      m.start();
      await m.page.goto(link);
      await look(m.page, 'the link opened', shot('link'));
      await m.click(m.page.getByRole('button', { name: 'Continue and sign in' }));
      await m.page.waitForURL(/\/console\/passkeys\?done=welcome$/);
      await look(m.page, 'welcome: register a passkey', shot('passkey-welcome'));
      await m.click(m.page.getByRole('button', { name: 'Register a passkey' }));
      await m.page.waitForURL(/done=added$/, { timeout: 8000 });
      const alice = (await club.store.getPrincipalByHandle('alice'))!;
      assert.equal((await club.store.listPasskeys(alice.id)).length, 1);
      // A next step, after a first-time act.
      const next = m.page.locator('section', { has: m.page.getByRole('heading', { name: 'Next' }) });
      assert.match(await next.innerText(), /issue a token/);
      await look(m.page, 'passkey registered', shot('passkey-added'));
      t.diagnostic(`member: ${m.clicks} clicks`);
      assert.ok(m.clicks <= MAX_CLICKS.signInAndPasskey, `${m.clicks} clicks`);
    });

    void it('issues a token with two permissions, confirmed before it is made', async (t) => {
      const m = member;
      await m.page.goto(`${club.base}/console/`);
      await look(m.page, 'the overview', null);
      m.start();
      await m.click(m.page.getByRole('link', { name: 'Tokens' }));
      await m.page.getByLabel('Label (which agent it is for)').fill('Research');
      // Nothing is ticked: the least access first.
      assert.equal(await m.page.locator('#issue-form input[name=scope]:checked').count(), 0);
      await m.tick(m.page.getByRole('checkbox', { name: /^Your inbox/ }));
      await m.tick(m.page.getByRole('checkbox', { name: /^Ask members/ }));
      await m.page.waitForFunction(() =>
        /see 7 tools/.test(document.getElementById('token-preview')?.textContent ?? ''),
      );
      await look(m.page, 'the issue form, two permissions ticked', shot('token-form'));
      await m.click(m.page.getByRole('button', { name: 'Continue…' }));
      const restated = await m.page.locator('main').innerText();
      assert.match(restated, /Nothing is created yet/);
      assert.match(restated, /Research[\s\S]*Your inbox, Ask members[\s\S]*after 30 days/);
      assert.match(restated, /ask other members questions, in your name/);
      await look(m.page, 'the confirmation', shot('token-confirm'));
      await m.click(m.page.getByRole('button', { name: 'Issue the token' }));
      research = (await m.page.locator('#secret').innerText()).trim();
      assert.match(await m.page.locator('main').innerText(), /Treat it like a password/);
      await look(m.page, 'the secret, shown once', shot('token-secret'));
      t.diagnostic(`${m.clicks} clicks`);
      assert.ok(m.clicks <= MAX_CLICKS.issueToken, `${m.clicks} clicks`);
      const agent = await club.connect(research);
      const names = (await agent.listTools()).tools.map((x) => x.name).sort();
      assert.deepEqual(names, [
        'answer_question',
        'ask_agent',
        'club_info',
        'get_consultation',
        'get_profile',
        'list_members',
        'list_questions',
      ]);
    });

    void it('approves one decision and denies another with a note', async (t) => {
      await changeMandate(club, 'alice', { consultCounterparts: 'bob' });
      const ask = await laptop.callTool({
        name: 'ask_agent',
        arguments: { to: 'carol', question: 'Lunch on Friday?' },
      });
      const review = await laptop.callTool({
        name: 'review_candidate',
        arguments: { handle: 'cleo', verdict: 'support', note: 'Solid work.' },
      });
      const ids = [ask, review].map((r) => {
        const out = r.structuredContent as { status?: string; decision_id?: string } | undefined;
        assert.equal(out?.status, 'queued_for_principal', JSON.stringify(r));
        return out.decision_id!;
      });
      const m = member;
      await m.page.goto(`${club.base}/console/`);
      m.start();
      await m.click(m.page.getByRole('link', { name: /Decide what your agents asked you/ }));
      const queue = await m.page.locator('main').innerText();
      assert.match(queue, /Your agent “laptop” wants to ask @carol a question/);
      assert.match(queue, /Your agent “laptop” wants to support the candidate @cleo/);
      await look(m.page, 'the decision queue', shot('decisions'));
      const first = m.page.locator('article.decision', { hasText: '@carol' });
      await m.click(first.getByRole('button', { name: 'Approve and run it' }));
      await m.page.waitForURL(/done=approved$/);
      const second = m.page.locator('article.decision', { hasText: '@cleo' });
      await second.getByLabel('Note to your agent (optional)').fill('Not before we have met.');
      await m.click(second.getByRole('button', { name: 'Deny' }));
      await m.page.waitForURL(/done=denied$/);
      const decided = await m.page.locator('main').innerText();
      assert.match(
        decided,
        /The question was sent to @carol; the answer will show on your Consultations page/,
      );
      assert.doesNotMatch(decided, /status=|consultation_id/);
      await look(m.page, 'decided', shot('decided'));
      t.diagnostic(`${m.clicks} clicks`);
      assert.ok(m.clicks <= MAX_CLICKS.decide, `${m.clicks} clicks`);
      // The agent reads both answers, the note with the denial.
      const status = async (id: string) => {
        const read = await laptop.callTool({ name: 'list_decisions', arguments: { decision_id: id } });
        return (read.structuredContent as { decisions: { status: string }[] }).decisions[0]?.status;
      };
      assert.deepEqual([await status(ids[0]!), await status(ids[1]!)], ['approved', 'denied']);
      const note = (await club.store.getDecision(ids[1]!))!.note;
      assert.equal(note && forHumans(note, 100), 'Not before we have met.');
    });

    void it('finds what an agent did yesterday, and why a call was refused', async (t) => {
      const alice = (await club.store.getPrincipalByHandle('alice'))!;
      const yesterday = new Date(Date.now() - 26 * 3_600_000).toISOString();
      await club.store.recordActivity([
        {
          principalId: alice.id,
          tokenId: laptopId,
          tool: 'get_profile',
          outcome: 'done',
          code: null,
          decisionId: null,
          summary: 'handle: "bob"',
          at: yesterday,
        },
      ]);
      // The Research agent calls for what its token does not give it: told "no such tool".
      const agent = await club.connect(research);
      await assert.rejects(
        agent.callTool({
          name: 'review_candidate',
          arguments: { handle: 'cleo', verdict: 'oppose', note: 'No.' },
        }),
        /not found/,
      );
      const recorded = async () =>
        (await club.store.pageActivity(alice.id, {}, { limit: 50, newestFirst: true })).some(
          (r) => r.outcome === 'refused',
        );
      for (let i = 0; i < 50 && !(await recorded()); i++) await new Promise((r) => setTimeout(r, 100));

      const m = member;
      await m.page.goto(`${club.base}/console/`);
      m.start();
      await m.click(m.page.getByRole('link', { name: 'Activity' }));
      await m.choose(m.page.getByLabel('Whose calls'), 'laptop');
      await m.click(m.page.getByRole('button', { name: 'Show' }));
      const yesterdayRow = m.page.locator('tbody tr', { hasText: /1 day ago|yesterday/ });
      assert.match(await yesterdayRow.innerText(), /read the profile of @bob[\s\S]*done/);
      await look(m.page, "one agent's calls", shot('activity-laptop'));
      await m.choose(m.page.getByLabel('Whose calls'), 'Research');
      await m.click(m.page.getByRole('button', { name: 'Show' }));
      const row = m.page.locator('tbody tr', { hasText: 'refused' });
      const why = await row.innerText();
      assert.match(why, /Your agent may not review candidates for membership, in your name/);
      assert.match(why, /permission “Review candidates”/);
      assert.doesNotMatch(why, /does not exist/);
      await look(m.page, 'a refused call, explained', shot('activity-refused'));
      t.diagnostic(`${m.clicks} clicks`);
      assert.ok(m.clicks <= MAX_CLICKS.activity, `${m.clicks} clicks`);
    });

    void it('disconnects an application connected through OAuth', async (t) => {
      const client = await register(club.base, 'http://127.0.0.1:9/callback', 'Calendar Helper');
      const clientId = String(client.body['client_id']);
      const p = pkce();
      const tokens = await exchange(club, clientId, await codeFor(club, clientId, p, ['inbox']), p.verifier);
      const access = String(tokens.body['access_token']);
      assert.equal((await listWith(club.server.mcpUrl, access)).status, 200);

      const m = member;
      await m.page.goto(`${club.base}/console/`);
      m.start();
      await m.click(m.page.getByRole('link', { name: 'Tokens' }));
      const row = m.page.locator('tbody tr', { hasText: 'Calendar Helper' });
      // When it was made and how long it lasts, never "never".
      assert.match(await row.innerText(), /Connected through OAuth[\s\S]*days? from now|in \d+ days/);
      await look(m.page, 'tokens with a connection', shot('tokens-connection'));
      await m.click(row.getByRole('button', { name: 'Disconnect Calendar Helper' }));
      assert.match(await m.page.locator('main').innerText(), /turned away from its very next request/);
      await look(m.page, 'the disconnect confirmation', shot('disconnect'));
      await m.click(m.page.getByRole('button', { name: 'Disconnect Calendar Helper' }));
      await m.page.waitForURL(/done=revoked$/);
      await look(m.page, 'disconnected', null);
      t.diagnostic(`${m.clicks} clicks`);
      assert.ok(m.clicks <= MAX_CLICKS.revokeConnection, `${m.clicks} clicks`);
      assert.equal((await listWith(club.server.mcpUrl, access)).status, 401);
    });
  });
}
