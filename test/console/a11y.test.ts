// axe-core on every console page, in Chromium, at 1280 and 375 px: the public pages, a
// member's, a candidate's and an operator's, the OAuth consent page signed out and in, and
// the states a page reaches by use (a preview, a secret shown once, a confirmation, a
// refusal, a form in error). Serious and critical findings fail, each named with its rule,
// the element and the rule's help page; moderate and minor ones are reported.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { revokeToken } from '../../src/admin/tokens.ts';
import { ROUTES } from '../../src/console/routes.ts';
import {
  axeFindings,
  browserSkip,
  launchBrowser,
  screenshots,
  startConsoleClub,
  watchPage,
  type AxeFinding,
  type ConsoleClub,
} from '../helpers/console.ts';
import { jargonOn } from '../helpers/jargon.ts';
import { CALLBACK, METADATA_CA, authorizeUrl, pkce, register } from '../helpers/oauth.ts';

const skip = browserSkip();
const WIDTHS = [1280, 375] as const;
const FAILING = new Set(['serious', 'critical']);

/** Every signed-in page that needs nothing in its address, read from the route table. */
const SIGNED_IN_PAGES = ROUTES.filter(
  (r) => r.method === 'GET' && typeof r.path === 'string' && r.access !== 'public',
).map((r) => ({ path: r.path as string, operator: r.access === 'operator' }));

void describe('axe-core on every console page, in Chromium', { skip }, () => {
  let club: ConsoleClub;
  let browser: Browser;

  before(async () => {
    club = await startConsoleClub(
      {},
      { oauth: { development: { privateMetadataHosts: true, metadataCa: METADATA_CA } } },
    );
    browser = await launchBrowser();
    const s = club.store;
    await club.add('alice', 'member', { name: 'Alice Example' });
    await club.add('olga', 'member', { name: 'Olga', operator: true });
    await club.add('cand', 'candidate', { name: 'Cleo Candidate' });
    await club.add('bob', 'member', { name: 'Bob' });
    const alice = (await s.getPrincipalByHandle('alice'))!;
    const bob = (await s.getPrincipalByHandle('bob'))!;
    const cand = (await s.getPrincipalByHandle('cand'))!;
    await s.updateProfile(alice.id, {
      headline: 'Grant writer',
      bio: 'Writes grants for community projects.\nLikes long walks.',
    });
    const laptop = await club.issue('alice', undefined, 'laptop');
    const old = await club.issue('alice', 'inbox', 'old phone');
    await revokeToken(s, old.tokenId);
    await club.issue('cand', undefined, 'cleo-agent');
    // Calls for the record of what agents did: one done, one refused.
    const agent = await club.connect(laptop.token);
    await agent.callTool({ name: 'get_profile', arguments: { handle: 'bob' } });
    await agent.callTool({ name: 'ask_agent', arguments: { to: 'nobody-here', question: 'Hello?' } });
    await s.addEvidence({
      principalId: alice.id,
      origin: 'manual',
      claim: 'Ran the spring fundraiser',
      artifactRef: null,
    });
    const asked = await s.createQuestion({ askerId: bob.id, targetId: alice.id, question: 'Free Friday?' });
    await s.answerQuestion(asked.id, 'Yes, after four.', new Date().toISOString());
    await s.createQuestion({ askerId: alice.id, targetId: bob.id, question: 'Lunch on <b>Friday</b>?' });
    await s.addReview({ reviewerId: bob.id, candidateId: cand.id, verdict: 'support', note: 'Solid work.' });
    for (const question of ['Dinner?', 'Coffee?'])
      await s.createDecision({
        principalId: alice.id,
        tokenId: laptop.tokenId,
        tool: 'ask_agent',
        arguments: { to: 'carol', question },
        reasonCode: 'counterpart_not_in_mandate',
        reason: 'outside the mandate',
      });
    // Asked by a token since revoked: approving it is refused as stale, then offered in person.
    await s.createDecision({
      principalId: alice.id,
      tokenId: old.tokenId,
      tool: 'ask_agent',
      arguments: { to: 'bob', question: 'Tea?' },
      reasonCode: 'counterpart_not_in_mandate',
      reason: 'outside the mandate',
    });
    const denied = await s.createDecision({
      principalId: alice.id,
      tokenId: laptop.tokenId,
      tool: 'review_candidate',
      arguments: { candidate: 'cand', verdict: 'oppose', note: 'Too soon.' },
      reasonCode: 'reviews_need_approval',
      reason: 'reviews need approval',
    });
    await s.claimDecision(denied.id, 'denied', 'Not yet.', new Date().toISOString());
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  /**
   * Runs axe at both widths; returns the failing findings, and reports the others. Every
   * state audited is also read for words a member should not meet: a tool id, a refusal
   * code or an HTTP status outside a <details> disclosure fails it.
   */
  async function audit(t: TestContext, page: Page, name: string, failures: string[]): Promise<void> {
    for (const j of await jargonOn(page)) failures.push(`${name}: jargon outside <details>: ${j}`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const f of await axeFindings(page)) {
        const line = describeFinding(`${name} at ${width} px`, f);
        if (FAILING.has(f.impact)) failures.push(line);
        else t.diagnostic(line);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function signedIn(handle: string): Promise<Page> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await club.link(handle));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/\/console\/(?:$|passkeys)/);
    return page;
  }

  /** Every signed-in page of the route table, as this principal sees it. */
  async function everyPage(t: TestContext, page: Page, who: string, operator: boolean, failures: string[]) {
    for (const p of SIGNED_IN_PAGES.filter((x) => operator || !x.operator)) {
      // A page that needs more in its address answers with a refusal: audited as it stands.
      const res = await page.goto(club.base + p.path);
      assert.ok((res?.status() ?? 500) < 500, p.path);
      await audit(t, page, `${p.path} (${who})`, failures);
    }
  }

  void it('names a fault it is shown: a page without a language, a button without a name', async () => {
    const page = await browser.newPage();
    await page.goto(`${club.base}/console/signin`);
    await page.evaluate(() => {
      document.documentElement.removeAttribute('lang');
      document.getElementById('passkey-signin')!.textContent = '';
    });
    const found = (await axeFindings(page)).map((f) => `${f.rule} ${f.impact} ${f.target}`);
    assert.ok(found.includes('html-has-lang serious html'), found.join('\n'));
    assert.ok(found.includes('button-name critical #passkey-signin'), found.join('\n'));
    await page.close();
  });

  void it('the public pages: sign-in (also at an IP address), a link, a refused link, a page that does not exist', async (t) => {
    const failures: string[] = [];
    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    const link = new URL(await club.link('alice'));
    const visits: [string, string, number][] = [
      ['/console/signin', 'sign-in', 200],
      ['/console/signin?done=signedout', 'sign-in, signed out', 200],
      [link.pathname + link.search, 'link', 200],
      ['/console/link?t=not-a-link', 'link refused', 400],
      ['/console/no-such-page', 'not found', 404],
    ];
    for (const [path, name, status] of visits) {
      const res = await page.goto(club.base + path);
      assert.equal(res?.status(), status, path);
      await audit(t, page, name, failures);
    }
    // The passkey ceremony's message, when the browser has no passkey to offer.
    await page.goto(`${club.base}/console/signin`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.locator('#passkey-status:not(:empty)').waitFor();
    await audit(t, page, 'sign-in, passkey refused', failures);
    assert.deepEqual(watch.problems, []);
    await context.close();
    // A console whose public origin is an IP address: the warning that passkeys cannot work there, in its own colours.
    const ipClub = await startConsoleClub({}, { publicHost: '127.0.0.1' });
    const atIp = await browser.newPage();
    try {
      await atIp.goto(`${ipClub.base}/console/signin`);
      assert.equal(await atIp.locator('#passkey-host.warning').count(), 1);
      await audit(t, atIp, 'sign-in at an IP address, its warning', failures);
    } finally {
      await atIp.close();
      await ipClub.close();
    }
    assert.deepEqual(failures, [], report(failures));
  });

  void it("a member's pages, and each state they reach by use", async (t) => {
    const failures: string[] = [];
    const page = await signedIn('alice');
    const watch = watchPage(page, club.base);
    await audit(t, page, 'passkeys, welcome', failures);
    await everyPage(t, page, 'member', false, failures);

    // Mandate: a preview, then a form in error (kept as typed, with the refusal).
    await page.goto(`${club.base}/console/mandate`);
    await page.getByRole('button', { name: 'Preview the effect' }).click();
    await page.getByRole('button', { name: 'Save these terms' }).waitFor();
    await audit(t, page, 'mandate preview', failures);
    await page.goto(`${club.base}/console/mandate`);
    await page.getByRole('checkbox', { name: /Review candidates/ }).uncheck();
    await page.getByRole('button', { name: 'Preview the effect' }).click();
    await page.getByRole('button', { name: 'Save these terms' }).waitFor();
    await audit(t, page, 'mandate preview, a permission taken away', failures);
    await page.goto(`${club.base}/console/mandate`);
    await page.getByLabel('Only these handles').check();
    await page.getByLabel('Handles, separated by commas').fill('nobody-here');
    await page.getByRole('button', { name: 'Preview the effect' }).click();
    await page.locator('.refusal').waitFor();
    await audit(t, page, 'mandate refused', failures);

    // Tokens: the live preview, a refused issue, the secret shown once, the revoke confirmation.
    await page.goto(`${club.base}/console/tokens`);
    await page.getByLabel('Label (which agent it is for)').fill('desk agent #1');
    await page.getByRole('button', { name: 'Continue…' }).click();
    await page.locator('.refusal').waitFor();
    await audit(t, page, 'tokens refused (nothing ticked)', failures);
    await page.getByRole('checkbox', { name: /Read your mandate/ }).check();
    await page.getByRole('button', { name: 'Continue…' }).click();
    await page.getByRole('button', { name: 'Issue the token' }).click();
    await page.locator('.refusal').waitFor();
    await audit(t, page, 'tokens refused (a label with #)', failures);
    await page.goto(`${club.base}/console/tokens`);
    await page.getByLabel('Label (which agent it is for)').fill('desk agent');
    await page.getByRole('checkbox', { name: /Your inbox/ }).check();
    await page.getByRole('checkbox', { name: /Read your mandate/ }).check();
    await page.getByRole('button', { name: 'Continue…' }).click();
    await page.getByRole('button', { name: 'Issue the token' }).waitFor();
    await audit(t, page, 'token confirmation', failures);
    await page.getByRole('button', { name: 'Issue the token' }).click();
    await page.locator('#secret').waitFor();
    await audit(t, page, 'token issued', failures);
    await page.goto(`${club.base}/console/tokens`);
    await page.getByRole('button', { name: 'Revoke desk agent' }).click();
    await page.waitForURL(/\/console\/tokens\/revoke$/);
    await audit(t, page, 'token revoke confirmation', failures);
    await page.getByRole('button', { name: 'Revoke desk agent' }).click();
    await page.waitForURL(/done=revoked$/);
    await audit(t, page, 'tokens, revoked', failures);

    // Activity: the calls of one token.
    await page.goto(`${club.base}/console/activity`);
    await page.getByLabel('Whose calls').selectOption({ label: 'laptop' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/token=/);
    await audit(t, page, 'activity of one token', failures);
    await screenshots(page, 'activity');

    // Profile: a blank name refused (what was typed kept), then saved.
    await page.goto(`${club.base}/console/profile`);
    await page.getByLabel('Name', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.locator('.refusal').waitFor();
    await audit(t, page, 'profile refused', failures);
    await page.getByLabel('Name', { exact: true }).fill('Alice Example');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForURL(/done=/);
    await audit(t, page, 'profile saved', failures);

    // Decisions: approve one; a stale one refused, then offered in person (confirmation).
    await page.goto(`${club.base}/console/decisions`);
    await page.getByRole('button', { name: 'Approve and run it' }).first().click();
    await page.waitForURL(/done=approved$/);
    await audit(t, page, 'decisions, approved', failures);
    const tea = page.locator('article.decision', { hasText: 'Tea?' });
    await tea.getByRole('button', { name: 'Approve and run it' }).click();
    await page.locator('.refusal').waitFor();
    await audit(t, page, 'decisions refused (stale)', failures);
    await page.getByRole('button', { name: 'Do it myself, now…' }).click();
    await page.getByRole('button', { name: 'Do it now' }).waitFor();
    await audit(t, page, 'decision reissue confirmation', failures);

    assert.deepEqual(watch.problems, []);
    await page.context().close();
    assert.deepEqual(failures, [], report(failures));
  });

  void it("a candidate's pages", async (t) => {
    const failures: string[] = [];
    const page = await signedIn('cand');
    await everyPage(t, page, 'candidate', false, failures);
    await page.context().close();
    assert.deepEqual(failures, [], report(failures));
  });

  void it("an operator's pages: principals, a candidate, a link made, a confirmation, a refusal", async (t) => {
    const failures: string[] = [];
    const page = await signedIn('olga');
    await everyPage(t, page, 'operator', true, failures);
    await page.goto(`${club.base}/console/operator?q=cle`);
    await audit(t, page, 'operator search', failures);
    await page.goto(`${club.base}/console/operator/principal?h=cand`);
    await audit(t, page, 'operator, a candidate with reviews', failures);
    await page.getByRole('button', { name: 'Make a sign-in link' }).click();
    await page.locator('#login-link').waitFor();
    await audit(t, page, 'operator, a link made', failures);
    await page.goto(`${club.base}/console/operator/principal?h=bob`);
    await page.getByRole('button', { name: 'Suspend…' }).click();
    await page.getByRole('button', { name: 'Suspend @bob' }).waitFor();
    await audit(t, page, 'operator, suspend confirmation', failures);
    await page.goto(`${club.base}/console/operator`);
    await page.getByLabel('Handle', { exact: true }).fill('alice');
    await page.getByRole('button', { name: 'Add candidate' }).click();
    await page.locator('.refusal').waitFor();
    await audit(t, page, 'operator, add refused', failures);
    await page.goto(`${club.base}/console/operator/principal?h=nobody`);
    await audit(t, page, 'operator, unknown principal', failures);
    await page.context().close();
    assert.deepEqual(failures, [], report(failures));
  });

  void it('the OAuth consent page, signed out and signed in, and an expired one', async (t) => {
    const failures: string[] = [];
    const client = await register(club.base, CALLBACK, 'Accessible Agent');
    const clientId = String(client.body['client_id']);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(club.base + authorizeUrl(club, clientId, pkce()));
    await page.waitForURL(/\/console\/oauth\//);
    await audit(t, page, 'consent, signed out', failures);
    // No passkey in this browser: the page says how to get in instead.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.locator('#passkey-status:not(:empty)').waitFor();
    await audit(t, page, 'consent, no passkey', failures);
    const consent = page.url();
    const t2 = new URL(await club.link('alice'));
    await page.goto(t2.href);
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/\/console\/(?:$|passkeys)/);
    await page.goto(consent);
    await page.locator('#consent-form').waitFor();
    await audit(t, page, 'consent, signed in', failures);
    // Allow with nothing ticked: told so, nothing granted.
    await page.getByRole('button', { name: 'Allow what is ticked' }).click();
    await page.locator('.refusal').waitFor();
    await audit(t, page, 'consent, nothing ticked', failures);
    // A request for only what no agent is ever given: an honest "nothing can be granted".
    await page.goto(club.base + authorizeUrl(club, clientId, pkce(), { scope: 'mandate:write' }));
    await page.waitForURL(/\/console\/oauth\//);
    await page.getByRole('heading', { name: 'Nothing can be granted' }).waitFor();
    await audit(t, page, 'consent, nothing can be granted', failures);
    await page.goto(`${club.base}/console/oauth/no-such-request`);
    await audit(t, page, 'consent, expired', failures);
    await context.close();
    assert.deepEqual(failures, [], report(failures));
  });
});

function describeFinding(where: string, f: AxeFinding): string {
  return `${where}: ${f.rule} (${f.impact}) at ${f.target} ${f.html} — ${f.help} — ${f.url}`;
}

function report(failures: string[]): string {
  return `${failures.length} serious or critical accessibility findings:\n  ${failures.join('\n  ')}`;
}
