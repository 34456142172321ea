// A client that knows only Warden's URL connects through the MCP authorization flow, with
// the official SDK v2 client's OAuth support and a principal in real Chromium: discovery
// from the 401, metadata, registration (client metadata document, or dynamic
// registration), a passkey sign-in on the consent page, exactly the tools picked, refresh,
// a narrower mandate, and the principal disconnecting the client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnauthorizedError, auth } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { changeMandate } from '../../src/admin/mandate.ts';
import { forHumans } from '../../src/untrusted/index.ts';
import {
  addVirtualAuthenticator,
  browserSkip,
  launchBrowser,
  screenshots,
  startConsoleClub,
  type ConsoleClub,
} from '../helpers/console.ts';
import {
  METADATA_CA,
  MemoryOAuthProvider,
  consentInBrowser,
  metadataDocument,
  oauthClient,
  serveMetadata,
  startCallback,
  type Callback,
  type Era,
  type MetadataHost,
} from '../helpers/oauth.ts';

const skip = browserSkip();
const ANONYMOUS_TOOLS = ['club_info', 'get_profile', 'list_members'];

/** Link sign-in, a passkey registered, signed out: the principal as they come to a consent page. */
async function enrolPasskey(club: ConsoleClub, page: Page, handle: string): Promise<void> {
  await page.goto(await club.link(handle));
  await page.getByRole('button', { name: 'Continue and sign in' }).click();
  await page.waitForURL(/\/console\/passkeys\?done=welcome$/);
  await page.getByLabel('Name for this passkey').fill('test device');
  await page.getByRole('button', { name: 'Register a passkey' }).click();
  await page.waitForURL(/done=added$/, { timeout: 8000 });
  await page.getByRole('button', { name: new RegExp(`Sign out @${handle}`) }).click();
  await page.waitForURL(/done=signedout$/);
}

async function toolNames(mcpUrl: string, provider: MemoryOAuthProvider, era: Era): Promise<string[]> {
  const c = oauthClient(mcpUrl, provider, era);
  await c.client.connect(c.transport);
  try {
    return (await c.client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await c.client.close();
  }
}

for (const [era, registration] of [
  ['legacy', 'client metadata document'],
  ['modern', 'dynamic registration'],
] as const) {
  void describe(`OAuth end to end, ${era} client, ${registration}`, { skip }, () => {
    let club: ConsoleClub;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let callback: Callback;
    let metadata: MetadataHost | null = null;

    before(async () => {
      club = await startConsoleClub(
        {},
        { oauth: { development: { privateMetadataHosts: true, metadataCa: METADATA_CA } } },
      );
      browser = await launchBrowser();
      context = await browser.newContext();
      page = await context.newPage();
      await addVirtualAuthenticator(context, page);
      callback = await startCallback();
      if (registration === 'client metadata document')
        metadata = await serveMetadata((url) => metadataDocument(url, callback.url, 'Test Agent'));
      await club.add('alice', 'member', { name: 'Alice' });
      await club.add('bob', 'member');
      await enrolPasskey(club, page, 'alice');
    });
    after(async () => {
      await browser?.close();
      await callback?.close();
      await metadata?.close();
      await club?.close();
    });

    void it('401 → metadata → registration → passkey consent → exactly the tools picked → refresh → narrower mandate → revoked → 401', async () => {
      const provider = new MemoryOAuthProvider(callback.url, 'Test Agent', metadata?.url);

      // Anonymous works (the refusal nobody hears stays audible elsewhere); a tool beyond it asks for sign-in.
      const first = oauthClient(club.server.mcpUrl, provider, era);
      await first.client.connect(first.transport);
      assert.deepEqual((await first.client.listTools()).tools.map((t) => t.name).sort(), ANONYMOUS_TOOLS);
      await assert.rejects(first.client.callTool({ name: 'get_mandate', arguments: {} }), UnauthorizedError);
      await first.client.close();

      assert.equal(provider.authorizationUrls.length, 1);
      const authorizationUrl = provider.authorizationUrls[0]!;
      assert.equal(authorizationUrl.origin, club.base);
      assert.equal(authorizationUrl.searchParams.get('resource'), club.server.mcpUrl);
      assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
      if (metadata) {
        assert.equal(provider.info?.client_id, metadata.url, 'the client id is its metadata document URL');
        assert.equal(metadata.fetches, 0, 'Warden fetches the document when the browser arrives, not before');
      } else {
        assert.match(provider.info?.client_id ?? '', /^[A-Za-z0-9_-]+$/, 'a dynamically registered id');
      }

      // The consent page: the client as it describes itself, the scopes, the live tool preview.
      await page.goto(authorizationUrl.href);
      await page.waitForURL(/\/console\/oauth\//);
      const signInText = await page.locator('main').innerText();
      assert.match(signInText, /Test Agent/);
      assert.match(signInText, /Unverified/);
      await consentInBrowser(page, authorizationUrl, {
        scopes: ['inbox', 'mandate:read'],
        previewTools: 7,
        screenshot: `oauth-consent-${era}`,
      });
      const returned = await callback.next();
      if (metadata) assert.ok(metadata.fetches >= 1, 'the metadata document was fetched');
      assert.equal(returned.get('iss'), club.base, 'RFC 9207: the response names its issuer');
      await first.transport.finishAuth(returned);
      assert.ok(provider.saved?.access_token);
      assert.ok(provider.saved?.refresh_token, 'a refresh token is issued');
      assert.equal(provider.saved?.scope?.split(' ').sort().join(' '), 'inbox mandate:read');

      // The connection is an agent token in the tokens table: label, origin, client id.
      const alice = (await club.store.getPrincipalByHandle('alice'))!;
      const rows = (await club.store.listTokens(alice.id)).filter((t) => t.origin === 'oauth');
      assert.equal(rows.length, 1);
      assert.equal(forHumans(rows[0]!.label), 'Test Agent');
      assert.equal(rows[0]!.clientId, provider.info?.client_id);
      assert.deepEqual(rows[0]!.scopes, ['inbox', 'mandate:read']);

      assert.deepEqual(
        await toolNames(club.server.mcpUrl, provider, era),
        [...ANONYMOUS_TOOLS, 'answer_question', 'get_mandate', 'list_decisions', 'list_questions'].sort(),
      );

      // Refresh: a new pair; the old refresh token is spent (rotation).
      const before = provider.saved!;
      await auth(provider, { serverUrl: club.server.mcpUrl, forceRefresh: true } as Parameters<
        typeof auth
      >[1]);
      assert.notEqual(provider.saved!.refresh_token, before.refresh_token, 'refresh tokens rotate');
      assert.notEqual(provider.saved!.access_token, before.access_token);

      // The principal narrows the mandate: the next request sees fewer tools.
      await changeMandate({ store: club.store, registry: club.registry }, 'alice', {
        scopes: 'profile:write,evidence:write,mandate:read,consult,vouch',
      });
      assert.deepEqual(
        await toolNames(club.server.mcpUrl, provider, era),
        [...ANONYMOUS_TOOLS, 'get_mandate', 'list_decisions'].sort(),
      );

      // The principal sees the connected client among their tokens and revokes it.
      await page.goto(`${club.base}/console/tokens`);
      if (await page.locator('#passkey-signin').count()) {
        await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await page.waitForURL(/\/console\/$/);
        await page.goto(`${club.base}/console/tokens`);
      }
      const listed = await page.locator('main table').innerText();
      assert.match(listed, /Test Agent/);
      assert.match(listed, /OAuth/);
      await screenshots(page, `oauth-tokens-${era}`);
      await page.getByRole('button', { name: 'Disconnect Test Agent' }).click();
      await page.getByRole('button', { name: 'Disconnect Test Agent' }).click();
      await page.waitForURL(/done=revoked$/);

      const afterRevoke = await fetch(club.server.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${provider.saved!.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      assert.equal(afterRevoke.status, 401);
      assert.match(afterRevoke.headers.get('www-authenticate') ?? '', /invalid_token/);
      const refreshAfterRevoke = await fetch(`${club.base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: provider.saved!.refresh_token!,
          client_id: provider.info!.client_id,
        }).toString(),
      });
      assert.equal(refreshAfterRevoke.status, 400, 'a revoked connection cannot refresh either');
    });
  });
}
