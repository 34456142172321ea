// The operator at the console, in Chromium: admission widens a candidate's agent at
// its next request; suspension stops a member's console session and tokens at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { ALL_AGENT_SCOPES } from '../helpers/club.ts';
import {
  browserSkip,
  launchBrowser,
  screenshots,
  startConsoleClub,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';

const skip = browserSkip();

void describe('the operator at the console, in Chromium', { skip }, () => {
  let club: ConsoleClub;
  let browser: Browser;

  before(async () => {
    club = await startConsoleClub();
    browser = await launchBrowser();
    await club.add('olga', 'member', { operator: true, name: 'Olga' });
    await club.add('cleo', 'candidate', { name: 'Cleo' });
    await club.add('mike', 'member', { name: 'Mike' });
    await club.add('rita', 'member', { name: 'Rita' });
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  void it('admits a candidate: their agent goes from 10 tools to 14 at its next tools/list', async () => {
    const cleo = await club.store.getPrincipalByHandle('cleo');
    const rita = await club.store.getPrincipalByHandle('rita');
    await club.store.addReview({
      reviewerId: rita!.id,
      candidateId: cleo!.id,
      verdict: 'support',
      note: 'Solid work on the grant.',
    });
    // Issued while a candidate, with the member scopes for after admission (inert until then).
    const issued = await issueAgentToken(club.store, club.registry, 'cleo', {
      scopes: ALL_AGENT_SCOPES,
      label: 'cleo-agent',
      afterAdmission: true,
    });
    const agent = await club.connect(issued.token);
    assert.equal((await agent.listTools()).tools.length, 10);

    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await page.goto(await club.link('olga'));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/passkeys/);
    await page.getByRole('link', { name: 'Operator' }).click();
    await page.getByLabel('Search by the start of words in handle, name or headline').fill('cle');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = await page.locator('main table tbody tr').count();
    assert.equal(rows, 1, 'the search finds only cleo');
    await screenshots(page, 'operator');
    await page.getByRole('link', { name: '@cleo' }).click();
    assert.match(await page.locator('main').innerText(), /Solid work on the grant\./);
    await screenshots(page, 'operator-principal');
    await page.getByRole('button', { name: 'Admit as member' }).click();
    await page.waitForURL(/done=admitted/);
    assert.equal((await agent.listTools()).tools.length, 14, 'the very next tools/list');

    // A sign-in link made on the page works once, for the right person.
    await page.getByRole('button', { name: 'Make a sign-in link' }).click();
    const link = (await page.locator('#login-link').innerText()).trim();
    assert.match(link, new RegExp(`^${club.base}/console/link\\?t=`));
    const other = await browser.newContext();
    const cleoPage = await other.newPage();
    await cleoPage.goto(link);
    await cleoPage.getByRole('button', { name: 'Continue and sign in' }).click();
    await cleoPage.waitForURL(/passkeys/);
    await cleoPage.goto(`${club.base}/console/`);
    assert.match(await cleoPage.locator('main').innerText(), /@cleo[\s\S]*member/);
    await other.close();
    assert.deepEqual(watch.problems, []);
    await context.close();
  });

  void it('suspends a member: their console session and their tokens stop at once', async () => {
    const { token } = await club.issue('mike');
    const agent = await club.connect(token);
    assert.equal((await agent.listTools()).tools.length, 14);
    const mikeContext = await browser.newContext();
    const mike = await mikeContext.newPage();
    await mike.goto(await club.link('mike'));
    await mike.getByRole('button', { name: 'Continue and sign in' }).click();
    await mike.waitForURL(/passkeys/);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await club.link('olga'));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/passkeys/);
    await page.goto(`${club.base}/console/operator/principal?h=mike`);
    await page.getByRole('button', { name: 'Suspend…' }).click();
    assert.match(await page.locator('main').innerText(), /Suspend @mike\?/);
    assert.equal((await club.store.getPrincipalByHandle('mike'))!.status, 'member', 'asking changes nothing');
    await screenshots(page, 'operator-suspend');
    await page.getByRole('button', { name: 'Suspend @mike' }).click();
    await page.waitForURL(/done=suspended/);

    await mike.goto(`${club.base}/console/`);
    assert.match(mike.url(), /\/console\/signin$/);
    await assert.rejects(agent.listTools(), (err: Error) =>
      /401|Unauthorized|invalid_token/i.test(String(err)),
    );

    await page.getByRole('button', { name: 'Reinstate…' }).click();
    await page.getByRole('button', { name: 'Reinstate @mike' }).click();
    await page.waitForURL(/done=reinstated/);
    await mikeContext.close();
    await context.close();
  });
});
