// A default start (`warden serve` as `npm start` runs it, with no --public-url): every way
// into the console works with a passkey, because every link, redirect and the OAuth issuer
// come from one public origin, http://localhost:PORT. The link the CLI prints (as the banner
// says to make it), the link an operator makes on the console's page, and the OAuth consent a
// real SDK client is sent to, each opened in Chromium with a virtual authenticator; a page
// asked for at 127.0.0.1 is sent to localhost before anything is spent.
//
// The server runs on --port 0 rather than 8787 so that tests can run side by side; the origin
// is then http://localhost:<that port>, and the banner's link command names it.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { addVirtualAuthenticator, browserSkip, launchBrowser, screenshots } from '../helpers/console.ts';
import { consentInBrowser, MemoryOAuthProvider, oauthClient, startCallback } from '../helpers/oauth.ts';

const BIN = join(import.meta.dirname, '../../bin/warden.js');

/** Runs `./bin/warden.js ARGS` against the test's store; stdout, or the test fails with stderr. */
function warden(db: string, args: string[]): string {
  const run = spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8' });
  assert.equal(run.status, 0, `warden ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** Registers a passkey from the welcome page a first sign-in lands on. */
async function registerPasskey(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Continue and sign in' }).click();
  await page.waitForURL(/passkeys\?done=welcome$/);
  await page.getByRole('button', { name: 'Register a passkey' }).click();
  await page.waitForURL(/done=added$/, { timeout: 15_000 }).catch(async (e: unknown) => {
    throw new Error(`${String(e)}: ${await page.locator('#passkey-status').innerText()}`);
  });
}

describe('a default start: sign-in links and consent work with passkeys', { skip: browserSkip() }, () => {
  let dir: string;
  let db: string;
  let child: ChildProcess;
  let banner: string;
  let base: string;
  let browser: Browser;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-default-start-'));
    db = join(dir, 'club.db');
    warden(db, ['admin', 'init']);
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    banner = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`no banner: ${text}`)), 20_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('Authorization: Bearer $TOKEN')) {
          clearTimeout(timer);
          resolve(text);
        }
      });
    });
    base = /console: (http:\/\/localhost:\d+)\/console\/\n/.exec(banner)?.[1] ?? '';
    assert.ok(base, banner);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('the banner gives one origin, by name, for MCP, the console and the link command', () => {
    assert.match(banner, new RegExp(`MCP server at ${base}/mcp\\n`));
    assert.match(banner, new RegExp(`login-link HANDLE --public-url ${base} --db `));
    assert.doesNotMatch(banner, /127\.0\.0\.1/);
  });

  it('the link the CLI makes, opened at 127.0.0.1, is sent to localhost unspent, signs in and takes a passkey', async () => {
    warden(db, ['admin', 'principal', 'add', 'alice', '--status', 'member', '--name', 'Alice', '--operator']);
    // The command the banner prints, for alice.
    const command = /sign in with a one-time link: \.\/bin\/warden\.js (.*)\n/.exec(banner)![1]!;
    const args = command.replace('HANDLE', 'alice').split(' ');
    const at = args.indexOf('--db');
    const link = warden(db, [...args.slice(0, at), ...args.slice(at + 2)]).trim();
    assert.match(link, new RegExp(`^${base}/console/link\\?t=`));

    const context = await browser.newContext();
    const page = await context.newPage();
    await addVirtualAuthenticator(context, page);
    await page.goto(link.replace('//localhost:', '//127.0.0.1:'));
    assert.equal(
      new URL(page.url()).origin,
      base,
      'the browser is at the public origin before anything runs',
    );
    await registerPasskey(page);

    // Later, signed out: the passkey signs in at the same origin.
    await context.clearCookies();
    await page.goto(`${base}/console/signin`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/console/signin'), { timeout: 15_000 });
    assert.match(await page.locator('body').innerText(), /@alice/);
    await context.close();
  });

  it('a link an operator makes on the console opens at the public origin and takes a passkey', async () => {
    warden(db, ['admin', 'principal', 'add', 'bob', '--status', 'member', '--name', 'Bob']);
    const alice = await browser.newContext();
    const page = await alice.newPage();
    await addVirtualAuthenticator(alice, page);
    await page.goto(warden(db, ['admin', 'principal', 'login-link', 'alice', '--public-url', base]).trim());
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/\/console\//);
    await page.goto(`${base}/console/operator`);
    await page.getByRole('link', { name: '@bob' }).click();
    await page.getByRole('button', { name: 'Make a sign-in link' }).click();
    const link = (await page.locator('#login-link').innerText()).trim();
    assert.match(
      link,
      new RegExp(`^${base}/console/link\\?t=`),
      'built from the public origin, not the bind',
    );
    await screenshots(page, 'operator-link-default-start');
    await alice.close();

    const bob = await browser.newContext();
    const bobPage = await bob.newPage();
    await addVirtualAuthenticator(bob, bobPage);
    await bobPage.goto(link);
    await registerPasskey(bobPage);
    await bob.close();
  });

  it('an SDK client sent to consent: the principal signs in there with a passkey and allows', async () => {
    const callback = await startCallback();
    const context = await browser.newContext();
    const page = await context.newPage();
    await addVirtualAuthenticator(context, page);
    try {
      // carol registers her passkey from a link, then signs out.
      warden(db, ['admin', 'principal', 'add', 'carol', '--status', 'member', '--name', 'Carol']);
      await page.goto(warden(db, ['admin', 'principal', 'login-link', 'carol', '--public-url', base]).trim());
      await registerPasskey(page);
      await context.clearCookies();

      const provider = new MemoryOAuthProvider(callback.url, 'Default Start Agent');
      const first = oauthClient(`${base}/mcp`, provider, 'legacy');
      await first.client.connect(first.transport);
      await assert.rejects(first.client.callTool({ name: 'get_mandate', arguments: {} }), UnauthorizedError);
      await first.client.close();
      const authorizationUrl = provider.authorizationUrls.at(-1)!;
      assert.equal(authorizationUrl.origin, base, 'the authorization server is at the public origin');
      assert.equal(authorizationUrl.searchParams.get('resource'), `${base}/mcp`);

      await consentInBrowser(page, authorizationUrl, { scopes: ['mandate:read'] });
      const returned = await callback.next();
      assert.equal(returned.get('iss'), base);
      await first.transport.finishAuth(returned);
      const second = oauthClient(`${base}/mcp`, provider, 'legacy');
      await second.client.connect(second.transport);
      const mandate = await second.client.callTool({ name: 'get_mandate', arguments: {} });
      assert.notEqual(mandate.isError, true, JSON.stringify(mandate));
      await second.client.close();
    } finally {
      await context.close();
      await callback.close();
    }
  });
});
