// The console with the keyboard alone, in Chromium: Tab, Shift+Tab, typing, Enter and Space;
// no mouse and no click() from the test. Sign-in with a link and with a passkey, a decision
// approved and one denied, a token issued and revoked, and an OAuth client allowed. Every
// element focus lands on on the way shows a visible focus indicator (an outline or a box
// shadow while it matches :focus-visible), and the focus order reaches each action.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  addVirtualAuthenticator,
  browserSkip,
  launchBrowser,
  startConsoleClub,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';
import { METADATA_CA, authorizeUrl, pkce, register, startCallback, type Callback } from '../helpers/oauth.ts';

const skip = browserSkip();

/** Where focus is, and whether a person can see it there. */
interface Stop {
  name: string;
  visible: boolean;
}

/** The focused element, named as a person would find it, and whether its focus is drawn. */
async function focused(page: Page): Promise<Stop> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { name: '(page)', visible: true };
    const cs = getComputedStyle(el);
    const outline = cs.outlineStyle !== 'none' && Number.parseFloat(cs.outlineWidth) >= 2;
    const shadow = cs.boxShadow !== 'none';
    const label =
      el.getAttribute('aria-label') ??
      ((el as HTMLInputElement).labels?.[0]?.textContent || el.textContent || '').trim().slice(0, 40);
    return {
      name: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} “${label}”`,
      visible: el.matches(':focus-visible') && (outline || shadow),
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, as a person would; fails if it is
 * not reached within `max` presses or if any stop on the way shows no focus indicator.
 */
async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number } = {}) {
  const key = opts.back ? 'Shift+Tab' : 'Tab';
  const stops: Stop[] = [];
  for (let i = 0; i < (opts.max ?? 150); i++) {
    await page.keyboard.press(key);
    stops.push(await focused(page));
    if (await target.evaluate((el) => el === document.activeElement)) {
      const unseen = stops.filter((s) => !s.visible).map((s) => s.name);
      assert.deepEqual(unseen, [], `focus is not drawn on: ${unseen.join(', ')}`);
      return stops;
    }
  }
  throw new Error(
    `${key} never reached ${String(target)}; focus went ${stops.map((s) => s.name).join(' → ')}`,
  );
}

/** Tabs to a control and presses a key on it (Enter or Space), as pressing it by hand. */
async function press(page: Page, target: Locator, key: 'Enter' | 'Space' = 'Enter') {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** A fresh page, its focus at the top as after opening a URL. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await page.locator('main').waitFor();
}

void describe('the console with the keyboard alone, in Chromium', { skip }, () => {
  let club: ConsoleClub;
  let browser: Browser;
  let callback: Callback;

  before(async () => {
    club = await startConsoleClub(
      {},
      { oauth: { development: { privateMetadataHosts: true, metadataCa: METADATA_CA } } },
    );
    browser = await launchBrowser();
    callback = await startCallback();
    await club.add('alice', 'member', { name: 'Alice' });
    await club.add('bob', 'member');
    await club.add('carol', 'member');
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await club?.close();
  });

  async function linkSignIn(page: Page, handle: string) {
    await open(page, await club.link(handle));
    await press(page, page.getByRole('button', { name: 'Continue and sign in' }));
    await page.waitForURL(/\/console\/(?:$|passkeys)/);
  }

  void it('fails where focus is not drawn', async () => {
    const page = await browser.newPage();
    await open(page, `${club.base}/console/signin`);
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.evaluate((el) => {
      (el as HTMLElement).style.outline = 'none';
    });
    await assert.rejects(tabTo(page, button), /focus is not drawn on: button#passkey-signin/);
    await page.close();
  });

  void it('signs in with a link, registers a passkey, signs out and signs in with the passkey', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await addVirtualAuthenticator(context, page);

    await open(page, await club.link('alice'));
    await press(page, page.getByRole('button', { name: 'Continue and sign in' }));
    await page.waitForURL(/\/console\/passkeys\?done=welcome$/);

    const name = page.getByLabel('Name for this passkey');
    await tabTo(page, name);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('keyboard key');
    await press(page, page.getByRole('button', { name: 'Register a passkey' }));
    await page.waitForURL(/done=added$/, { timeout: 8000 }).catch(async (e: unknown) => {
      throw new Error(`${String(e)}: ${await page.locator('#passkey-status').innerText()}`);
    });
    assert.match(await page.locator('main table').innerText(), /keyboard key/);

    await press(page, page.getByRole('button', { name: 'Sign out @alice' }));
    await page.waitForURL(/\/console\/signin\?done=signedout$/);
    await press(page, page.getByRole('button', { name: 'Sign in with a passkey' }), 'Space');
    await page.waitForURL(`${club.base}/console/`, { timeout: 8000 });
    assert.match(await page.locator('main').innerText(), /@alice/);
    assert.deepEqual(watch.problems, []);
    await context.close();
  });

  void it('approves one decision and denies another, with a note', async () => {
    const { tokenId } = await club.issue('alice', undefined, 'laptop');
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    const ask = (to: string, question: string) =>
      club.store.createDecision({
        principalId: alice.id,
        tokenId,
        tool: 'ask_agent',
        arguments: { to, question },
        reasonCode: 'counterpart_not_in_mandate',
        reason: 'outside the mandate',
      });
    const first = await ask('bob', 'Lunch on Friday?');
    const second = await ask('carol', 'Dinner on Saturday?');
    const context = await browser.newContext();
    const page = await context.newPage();
    await linkSignIn(page, 'alice');

    await open(page, `${club.base}/console/decisions`);
    // The skip link is the first stop and leads past the navigation: the introduction's
    // link to the mandate and the request's Details come next, then the note of the oldest
    // decision, which waits first.
    await tabTo(page, page.getByRole('link', { name: 'Skip to content' }), { max: 1 });
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Note to your agent (optional)').first(), { max: 3 });
    await page.keyboard.type('Fine, go ahead.');
    await press(page, page.getByRole('button', { name: 'Approve and run it' }).first());
    await page.waitForURL(/done=approved$/);
    assert.equal((await club.store.getDecision(first.id))!.status, 'approved');
    assert.equal((await club.store.listQuestions({})).length, 1, 'approval ran the request');

    // The next: past Deny to the next control, and back with Shift+Tab.
    const deny = page.getByRole('button', { name: 'Deny' });
    await tabTo(page, deny);
    await page.keyboard.press('Tab');
    await tabTo(page, deny, { back: true, max: 1 });
    await page.keyboard.press('Space');
    await page.waitForURL(/done=denied$/);
    assert.equal((await club.store.getDecision(second.id))!.status, 'denied');
    await context.close();
  });

  void it('issues a token with only the permission ticked, confirms, and revokes it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await linkSignIn(page, 'alice');
    await open(page, `${club.base}/console/tokens`);

    await tabTo(page, page.getByLabel('Label (which agent it is for)'));
    await page.keyboard.type('desk agent');
    // Nothing is ticked; Space ticks a permission and the live preview follows, in the same
    // live region (a region put in place of another is not announced).
    const region = await page.locator('#token-preview[aria-live=polite]').elementHandle();
    await press(page, page.getByRole('checkbox', { name: /^Your inbox/ }), 'Space');
    await page.waitForFunction(() =>
      /see 5 tools/.test(document.getElementById('token-preview')?.textContent ?? ''),
    );
    assert.ok(await region!.evaluate((el) => el.isConnected), 'the preview is announced where it was');
    const expires = page.getByLabel('Expires after');
    await tabTo(page, expires);
    await page.keyboard.press('ArrowUp');
    assert.equal(await expires.inputValue(), '7d');
    await press(page, page.getByRole('button', { name: 'Continue…' }));
    // The choice restated before anything is made.
    await page.getByRole('heading', { name: 'Issue this token?' }).waitFor();
    await page.waitForLoadState();
    await press(page, page.getByRole('button', { name: 'Issue the token' }));
    const secret = (await page.locator('#secret').innerText()).trim();
    assert.match(secret, /^wdn_/);
    const agent = await club.connect(secret);
    assert.equal((await agent.listTools()).tools.length, 5);

    // The list and the secret share an address: the issue form says the list is back.
    await press(page, page.getByRole('link', { name: 'Back to your tokens' }));
    await page.locator('#issue-form').waitFor();
    await press(page, page.getByRole('button', { name: 'Revoke desk agent' }));
    await page.waitForURL(/\/console\/tokens\/revoke$/);
    await press(page, page.getByRole('button', { name: 'Revoke desk agent' }));
    await page.waitForURL(/done=revoked$/);
    await assert.rejects(agent.listTools(), (err: Error) =>
      /401|Unauthorized|invalid_token/i.test(String(err)),
    );
    assert.deepEqual(watch.problems, []);
    await context.close();
  });

  void it('allows an OAuth client exactly the permissions ticked', async () => {
    const client = await register(club.base, callback.url, 'Keyboard Agent');
    const clientId = String(client.body['client_id']);
    const context: BrowserContext = await browser.newContext();
    const page = await context.newPage();
    await linkSignIn(page, 'alice');
    await open(
      page,
      club.base + authorizeUrl(club, clientId, pkce(), { redirect_uri: callback.url, state: 'kb' }),
    );
    await page.waitForURL(/\/console\/oauth\//);
    await page.locator('#consent-form').waitFor();
    // Nothing is ticked: Space ticks the one permission to give.
    await press(page, page.getByRole('checkbox', { name: /^Your inbox/ }), 'Space');
    await page.waitForFunction(() =>
      /see 5 tools/.test(document.getElementById('token-preview')?.textContent ?? ''),
    );
    await press(page, page.getByRole('button', { name: 'Allow what is ticked' }));
    const back = await callback.next();
    assert.equal(back.get('state'), 'kb');
    assert.ok(back.get('code'), 'a code');
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    const rows = (await club.store.listTokens(alice.id)).filter((t) => t.origin === 'oauth');
    assert.deepEqual(
      rows.map((t) => t.scopes),
      [['inbox']],
    );
    await context.close();
  });
});
