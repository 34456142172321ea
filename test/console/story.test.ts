// The whole story in one real Chromium, against a real Warden with a real MCP client:
// the operator's link, a passkey, the mandate, tokens and the decision queue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  addVirtualAuthenticator,
  browserSkip,
  launchBrowser,
  screenshots,
  startConsoleClub,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';

const skip = browserSkip();

void describe('the principal at the console, end to end in Chromium', { skip }, () => {
  let club: ConsoleClub;
  let browser: Browser;

  before(async () => {
    club = await startConsoleClub();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  void it('link → passkey → sign out → passkey sign-in → narrower mandate → fewer tools for the agent', async () => {
    await club.add('alice', 'member', { name: 'Alice' });
    await club.add('bob', 'member');
    await club.add('carol', 'member');
    const agentToken = (await club.issue('alice', undefined, 'laptop')).token;
    const agent = await club.connect(agentToken);
    assert.equal((await agent.listTools()).tools.length, 14);

    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await addVirtualAuthenticator(context, page);

    // The operator's one-time link: opening it changes nothing until the person continues.
    await page.goto(await club.link('alice'));
    await screenshots(page, 'link');
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/\/console\/passkeys\?done=welcome$/);
    await page.getByLabel('Name for this passkey').fill('test device');
    await page.getByRole('button', { name: 'Register a passkey' }).click();
    await page.waitForURL(/done=added$/, { timeout: 8000 }).catch(async (e) => {
      throw new Error(`${e}: ${await page.locator('#passkey-status').innerText()} ${watch.problems.join()}`);
    });
    assert.match(await page.locator('main table').innerText(), /test device/);
    await screenshots(page, 'passkeys');
    assert.equal(
      (await club.store.listPasskeys((await club.store.getPrincipalByHandle('alice'))!.id)).length,
      1,
    );

    await page.getByRole('button', { name: /Sign out @alice/ }).click();
    await page.waitForURL(/\/console\/signin\?done=signedout$/);
    await screenshots(page, 'signin');
    await page.goto(`${club.base}/console/mandate`);
    await page.waitForURL(/\/console\/signin$/);

    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${club.base}/console/`);
    assert.match(await page.locator('main').innerText(), /@alice/);
    assert.match(await page.locator('main').innerText(), /laptop/);
    await screenshots(page, 'overview');

    // Narrow the mandate: preview first (nothing saved), then save.
    await page.getByRole('link', { name: 'Mandate' }).click();
    await screenshots(page, 'mandate');
    await page.getByLabel(/Review candidates/).uncheck();
    await page.getByLabel('Only these handles').check();
    await page.getByLabel('Handles, separated by commas').fill('bob');
    await page.getByRole('button', { name: 'Preview the effect' }).click();
    const preview = await page.locator('main').innerText();
    assert.match(preview, /Nothing is saved yet/);
    assert.match(preview, /list the candidates for membership; review candidates for membership/);
    await screenshots(page, 'mandate-preview');
    assert.equal((await agent.listTools()).tools.length, 14, 'a preview changes nothing');
    await page.getByRole('button', { name: 'Save these terms' }).click();
    await page.waitForURL(/done=saved$/);
    const names = (await agent.listTools()).tools.map((t) => t.name);
    assert.equal(names.length, 12, 'the very next tools/list');
    assert.ok(!names.includes('review_candidate') && names.includes('ask_agent'));

    // Issue a token: nothing ticked at first, the preview follows what is ticked, a
    // confirmation restates the choice, the secret is shown once.
    await page.getByRole('link', { name: 'Tokens' }).click();
    await page.getByLabel('Label (which agent it is for)').fill('desk agent');
    for (const s of ['inbox', 'mandate:read', 'consult'] as const) await page.getByLabel(s).check();
    await page.getByRole('button', { name: 'Preview what it could do' }).click();
    assert.match((await page.locator('#token-preview').textContent()) ?? '', /see 9 tools/);
    assert.match(await page.locator('#token-preview').innerText(), /ask other members questions/);
    await page.getByLabel('inbox').uncheck();
    await page.waitForFunction(() =>
      /see 7 tools/.test(document.getElementById('token-preview')!.textContent!),
    );
    await page.getByLabel('inbox').check();
    await page.waitForFunction(() =>
      /see 9 tools/.test(document.getElementById('token-preview')!.textContent!),
    );
    await screenshots(page, 'tokens');
    await page.getByRole('button', { name: 'Continue…' }).click();
    await page.getByRole('button', { name: 'Issue the token' }).click();
    const secret = (await page.locator('#secret').innerText()).trim();
    assert.match(secret, /^wdn_/);
    assert.match(
      await page.locator('main').innerText(),
      /\.mcp\.json[\s\S]*Claude Desktop[\s\S]*VS Code[\s\S]*Cursor[\s\S]*warden\.js doctor/,
    );
    await screenshots(page, 'token-issued');
    const desk = await club.connect(secret);
    assert.equal((await desk.listTools()).tools.length, 9);

    // Revoke it (with confirmation): the agent's next request is a 401.
    await page.getByRole('link', { name: 'Back to your tokens' }).click();
    await page.getByRole('button', { name: 'Revoke desk agent' }).click();
    await screenshots(page, 'token-revoke');
    await page.getByRole('button', { name: 'Revoke desk agent' }).click();
    await page.waitForURL(/done=revoked$/);
    await assert.rejects(desk.listTools(), (err: Error) =>
      /401|Unauthorized|invalid_token/i.test(String(err)),
    );

    // Outside the mandate's terms: a decision, approved in the browser, read back by the agent.
    const queued = await agent.callTool({
      name: 'ask_agent',
      arguments: { to: 'carol', question: 'Lunch on <b>Friday</b>?' },
    });
    const q = queued.structuredContent as { status: string; decision_id: string };
    assert.equal(q.status, 'queued_for_principal');
    await page.getByRole('link', { name: /Decisions/ }).click();
    const queue = await page.locator('main').innerText();
    assert.match(queue, /Waiting for you: 1/);
    assert.match(queue, /Your agent “laptop” wants to ask @carol a question/);
    // Shown as data: the text as written (escaped, as the admin CLI prints it), never markup.
    assert.match(queue, /Lunch on <b>Friday<\/b>\?/);
    assert.equal(await page.locator('main b').count(), 0);
    await screenshots(page, 'decisions');
    await page.getByLabel('Note to your agent (optional)').fill('Fine, go ahead.');
    await page.getByRole('button', { name: 'Approve and run it' }).click();
    await page.waitForURL(/done=approved$/);
    const read = await agent.callTool({ name: 'list_decisions', arguments: { decision_id: q.decision_id } });
    const d = (read.structuredContent as { decisions: { status: string; outcome: { ok: boolean } | null }[] })
      .decisions[0]!;
    assert.equal(d.status, 'approved');
    assert.equal(d.outcome?.ok, true);
    assert.equal((await club.store.listQuestions({})).length, 1, 'approval ran the request');

    for (const name of ['profile', 'evidence', 'consultations']) {
      await page.goto(`${club.base}/console/${name}`);
      await screenshots(page, name);
    }
    assert.deepEqual(watch.problems, []);
    await context.close();
  });
});
