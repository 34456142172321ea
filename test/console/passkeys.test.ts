// Passkeys as a person meets them: named at registration (their own name, else the provider's
// from its AAGUID, else the browser's), a plain answer when there is no passkey to use (the
// consent page says what a sign-in link is before anyone tries), and a page opened at
// 127.0.0.1 sent to the public origin, localhost, where passkeys work.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserName, passkeyName, providerName } from '../../src/console/passkey-names.ts';
import {
  addVirtualAuthenticator,
  browserSkip,
  launchBrowser,
  screenshots,
  startConsoleClub,
  Visitor,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';
import { Browserless, CALLBACK, authorizeUrl, pkce, register, start } from '../helpers/oauth.ts';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('a passkey’s name', () => {
  const PROVIDERS: [aaguid: string, name: string | null][] = [
    ['ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', 'Google Password Manager'],
    ['FBFC3007-154E-4ECC-8C0B-6E020557D7BD', 'Apple Passwords (iCloud Keychain)'],
    ['08987058-cadc-4b81-b6e1-30de50dcbe96', 'Windows Hello'],
    ['bada5566-a7aa-401f-bd96-45619a55120d', '1Password'],
    ['d548826e-79b4-db40-a3d8-11116f7e8349', 'Bitwarden'],
    ['cb69481e-8ff7-4039-93ec-0a2729a154a8', 'YubiKey 5 Series'],
    ['00000000-0000-0000-0000-000000000000', null],
    ['not an aaguid', null],
  ];
  for (const [aaguid, name] of PROVIDERS) {
    it(`${aaguid} is ${name ?? 'unknown'}`, () => assert.equal(providerName(aaguid), name));
  }

  const BROWSERS: [ua: string | undefined, name: string][] = [
    [CHROME_LINUX, 'Chrome on Linux'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Firefox on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on ChromeOS',
    ],
    ['curl/8.5.0', 'this browser'],
    [undefined, 'this browser'],
  ];
  for (const [ua, name] of BROWSERS) {
    it(`a browser saying ${JSON.stringify(ua?.slice(0, 40))}… is “${name}”`, () =>
      assert.equal(browserName(ua), name));
  }

  it('is the one given, else the provider’s, else the browser’s', () => {
    assert.equal(
      passkeyName('Work laptop', 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', CHROME_LINUX),
      'Work laptop',
    );
    assert.equal(
      passkeyName('', 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', CHROME_LINUX),
      'Google Password Manager',
    );
    assert.equal(passkeyName('', '00000000-0000-0000-0000-000000000000', CHROME_LINUX), 'Chrome on Linux');
  });
});

describe('the pages that offer passkeys', () => {
  let club: ConsoleClub;
  let ip: string;

  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 1000 }, { oauth: {} });
    await club.add('alice', 'member', { name: 'Alice' });
    ip = club.base.replace('//localhost:', '//127.0.0.1:');
  });
  after(() => club.close());

  it('asks for a name, suggesting the browser’s, and no longer fills in “this device”', async () => {
    const v = new Visitor(club.base);
    await v.signInWith(await club.link('alice'));
    const page = await (await v.get('/console/passkeys', { 'user-agent': CHROME_LINUX })).text();
    assert.match(page, /id="passkey-label"[^>]*placeholder="Chrome on Linux"/);
    assert.doesNotMatch(page, /this device"/);
    assert.match(page, /or else “Chrome on Linux”/);
    assert.doesNotMatch(page, /id="passkey-host"/, 'at a host name, nothing to warn of');
  });

  it('at 127.0.0.1, the sign-in page and a sign-in link are sent to localhost before anything runs, the link unspent', async () => {
    const signIn = await fetch(`${ip}/console/signin?done=signedout`, { redirect: 'manual' });
    assert.equal(signIn.status, 307);
    assert.equal(signIn.headers.get('location'), `${club.base}/console/signin?done=signedout`);
    const link = await club.link('alice');
    const atIp = link.replace(club.base, ip);
    for (const method of ['GET', 'POST']) {
      const res = await fetch(atIp, { method, redirect: 'manual' });
      assert.equal(res.status, 307, method);
      assert.equal(res.headers.get('location'), link, method);
      assert.equal(res.headers.get('set-cookie'), null, `${method}: no session was started at 127.0.0.1`);
    }
    // The link was not spent by its visit to the wrong address: it still signs in, once.
    const v = new Visitor(club.base);
    await v.signInWith(link);
    await v.csrf(); // throws unless the link signed in
    assert.doesNotMatch(
      (await (await v.get('/console/passkeys')).text()).replace(/\s+/g, ' '),
      /id="passkey-host"/,
    );
  });

  it('a DNS-rebound Host on a console or OAuth page is refused 403, never redirected, and the link stays unspent', async () => {
    const { request } = await import('node:http');
    const port = new URL(club.base).port;
    const link = await club.link('alice');
    for (const path of [new URL(link).pathname + new URL(link).search, '/oauth/auth', '/console/signin']) {
      const answer = await new Promise<{ status: number; location: string | undefined }>(
        (resolve, reject) => {
          const req = request(
            { host: '127.0.0.1', port, path, headers: { host: `attacker.example:${port}` } },
            (r) => {
              r.resume();
              resolve({ status: r.statusCode ?? 0, location: r.headers.location });
            },
          );
          req.on('error', reject);
          req.end();
        },
      );
      assert.deepEqual(answer, { status: 403, location: undefined }, path);
    }
    const v = new Visitor(club.base);
    await v.signInWith(link);
    await v.csrf(); // throws unless the link signed in
  });

  it('when the public origin is an IP address, the pages say no passkey works there and a link does', async () => {
    const ipClub = await startConsoleClub({ signInPerMinute: 1000 }, { publicHost: '127.0.0.1' });
    try {
      await ipClub.add('zoe', 'member', { name: 'Zoe' });
      const signIn = (await (await fetch(`${ipClub.base}/console/signin`)).text()).replace(/\s+/g, ' ');
      assert.match(signIn, /Passkeys do not work at this address\./);
      assert.match(
        signIn,
        /the IP address 127\.0\.0\.1\. Ask the club's operator to give the console a name/,
      );
      assert.match(signIn, /A sign-in link from the operator works at this address\./);
      const v = new Visitor(ipClub.base);
      await v.signInWith(await ipClub.link('zoe'));
      assert.match(await (await v.get('/console/passkeys')).text(), /id="passkey-host"/);
    } finally {
      await ipClub.close();
    }
  });

  it('the consent page, signed out, explains the way in without a passkey before anyone tries', async () => {
    const r = await register(club.base, CALLBACK);
    const b = new Browserless(club.base);
    const { res } = await start(b, authorizeUrl(club, String(r.body['client_id']), pkce()));
    assert.equal(res.status, 200);
    const page = (await res.text()).replace(/\s+/g, ' ');
    assert.match(page, /Sign in with a passkey/);
    assert.match(page, /No passkey yet\?/);
    assert.match(page, /Ask the club's operator for a <strong>sign-in link<\/strong>/);
    assert.match(page, /signs you in to the club's console once and lapses after 15 minutes/);
    assert.match(page, /come back to this page and reload it/);
  });
});

describe('passkeys in Chromium', { skip: browserSkip() }, () => {
  let club: ConsoleClub;
  let browser: Browser;

  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 1000 }, { oauth: {} });
    await club.add('alice', 'member', { name: 'Alice' });
    await club.add('nina', 'member', { name: 'Nina' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  it('a passkey registered without a name is named after the browser, and listed so', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await addVirtualAuthenticator(context, page);
    await page.goto(await club.link('alice'));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/passkeys\?done=welcome$/);
    assert.equal(await page.getByLabel('Name for this passkey').inputValue(), '');
    await page.getByRole('button', { name: 'Register a passkey' }).click();
    await page.waitForURL(/done=added$/, { timeout: 8000 }).catch(async (e: unknown) => {
      throw new Error(`${String(e)}: ${await page.locator('#passkey-status').innerText()}`);
    });
    // Chromium's virtual authenticator names no provider, so the browser's name is used.
    assert.match(await page.locator('main table tbody th').first().innerText(), /^Chrome on Linux$/);
    await screenshots(page, 'passkeys-named');
    assert.deepEqual(watch.problems, []);
    await context.close();
  });

  it('a member with no passkey at the consent page reads what to do, not the browser’s error, and gets in with a link', async () => {
    const r = await register(club.base, CALLBACK, 'Desk app');
    const context = await browser.newContext();
    const page = await context.newPage();
    await addVirtualAuthenticator(context, page);
    await page.goto(club.base + authorizeUrl(club, String(r.body['client_id']), pkce()));
    await page.waitForURL(/\/console\/oauth\//);
    const consent = page.url();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const status = page.locator('#passkey-status');
    await status.filter({ hasText: /^Not signed in\./ }).waitFor({ timeout: 15_000 });
    const said = await status.innerText();
    assert.match(said, /No passkey was used: .*this browser has no passkey for this club\. .*sign-in link/);
    assert.doesNotMatch(said, /NotAllowedError|operation either timed out|webauthn/i);
    await screenshots(page, 'consent-no-passkey');

    // The way the page describes: a sign-in link in this browser, then back to the page.
    const other = await context.newPage();
    await other.goto(await club.link('nina'));
    await other.getByRole('button', { name: 'Continue and sign in' }).click();
    await other.waitForURL(/passkeys/);
    await page.goto(consent);
    assert.match(await page.locator('main').innerText(), /Signed in as @nina\./);
    await context.close();
  });

  it('at 127.0.0.1, the browser lands on the sign-in page at localhost, and its passkey signs in there', async () => {
    const ip = club.base.replace('//localhost:', '//127.0.0.1:');
    await club.add('olga', 'member', { name: 'Olga' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await addVirtualAuthenticator(context, page);
    await page.goto(await club.link('olga'));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/passkeys\?done=welcome$/);
    await page.getByRole('button', { name: 'Register a passkey' }).click();
    await page.waitForURL(/done=added$/, { timeout: 15_000 });
    await context.clearCookies();
    await page.goto(`${ip}/console/signin`);
    assert.equal(new URL(page.url()).origin, club.base);
    assert.equal(await page.locator('#passkey-host').count(), 0, 'at a name, nothing to warn of');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/console/signin'), { timeout: 15_000 });
    assert.match(await page.locator('body').innerText(), /@olga|Olga/);
    await context.close();
  });
});
