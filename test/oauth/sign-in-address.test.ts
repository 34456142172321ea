// The sign-in address, /mcp/sign-in, on a default start (no --require-sign-in): an OAuth host
// that only calls the tools it was shown is given this address, is answered 401 with the
// challenge at connect, and its principal signs in on the consent page; the same host given
// /mcp still gets the anonymous tier (3 tools, no error), as every client that does not sign in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from 'mcp-sdk-v1/client/index.js';
import { UnauthorizedError as UnauthorizedErrorV1 } from 'mcp-sdk-v1/client/auth.js';
import { StreamableHTTPClientTransport as HttpV1 } from 'mcp-sdk-v1/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { doctorJson } from '../doctor/support.ts';
import { connectClient, rawPost } from '../helpers/club.ts';
import {
  addVirtualAuthenticator,
  browserSkip,
  launchBrowser,
  startConsoleClub,
  type ConsoleClub,
} from '../helpers/console.ts';
import {
  CALLBACK,
  consentInBrowser,
  MemoryOAuthProvider,
  oauthClient,
  startCallback,
  type Era,
} from '../helpers/oauth.ts';

const ANONYMOUS_TOOLS = ['club_info', 'get_profile', 'list_members'];
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('the sign-in address on a default start', () => {
  let club: ConsoleClub;
  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 1000 }, { oauth: {} });
    await club.add('alice', 'member', { name: 'Alice' });
  });
  after(async () => club?.close());

  it('answers a request without a credential 401 with the challenge; /mcp still serves the anonymous tier', async () => {
    const res = await rawPost(`${club.base}/mcp/sign-in`, INITIALIZE);
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    assert.match(
      challenge,
      new RegExp(`resource_metadata="${club.base}/\\.well-known/oauth-protected-resource/mcp"`),
    );
    assert.match(challenge, /scope="profile:write evidence:write inbox mandate:read consult vouch"/);
    const body = (await res.json()) as { reason: string; error_description: string };
    assert.equal(body.reason, 'sign_in_required');
    assert.match(
      body.error_description,
      /this address: it is for clients that sign in .*\/mcp serves the anonymous tier/,
    );

    for (const era of ['legacy', 'modern'] as const) {
      const anonymous = await connectClient(club.server.mcpUrl, undefined, era);
      assert.deepEqual((await anonymous.listTools()).tools.map((t) => t.name).sort(), ANONYMOUS_TOOLS);
      await anonymous.close();
    }
  });

  it('the anonymous skill says how to sign in: the sign-in address', async () => {
    const anonymous = await connectClient(club.server.mcpUrl, undefined, 'legacy');
    const read = await anonymous.readResource({ uri: 'skill://warden-club/SKILL.md' });
    const text = read.contents.map((c) => ('text' in c ? c.text : '')).join('');
    assert.match(text, /the club's sign-in address, this server's MCP address with `\/sign-in` after it/);
    await anonymous.close();
  });

  it('warden doctor without a token at the sign-in address says sign-in is required there, not that a token was rejected', async () => {
    const { code, server } = await doctorJson([`${club.base}/mcp/sign-in`]);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.match(server.reasons[0] ?? '', /^sign-in required here: Sign in to use this address/);
    assert.match(server.fix ?? '', /signs in through OAuth/);
    assert.doesNotMatch(JSON.stringify(server), /token rejected/);
  });

  it('serves a static token there as at /mcp', async () => {
    const { token } = await club.issue('alice', 'inbox,mandate:read', 'static');
    const client = await connectClient(`${club.base}/mcp/sign-in`, token, 'legacy');
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'get_mandate'));
    await client.close();
  });

  it('the SDK 1.x client, which most hosts ship, given the sign-in address is sent to authorize at connect', async () => {
    const provider = new MemoryOAuthProvider(CALLBACK, 'Listed-Tools Host 1.x');
    const client = new ClientV1({ name: 'warden-oauth-v1', version: '1.0.0' });
    const transport = new HttpV1(new URL(`${club.base}/mcp/sign-in`), {
      authProvider: provider,
    });
    await assert.rejects(client.connect(transport), UnauthorizedErrorV1);
    const asked = provider.authorizationUrls.at(-1);
    assert.ok(asked, 'the client was sent to the authorization endpoint');
    assert.equal(asked.searchParams.get('resource'), club.server.mcpUrl);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`the SDK client (${era} era) given the sign-in address is sent to authorize at connect, for /mcp`, async () => {
      const provider = new MemoryOAuthProvider(CALLBACK, `Listed-Tools Host ${era}`);
      const { client, transport } = oauthClient(`${club.base}/mcp/sign-in`, provider, era);
      await assert.rejects(client.connect(transport), UnauthorizedError);
      const asked = provider.authorizationUrls.at(-1);
      assert.ok(asked, 'the client was sent to the authorization endpoint');
      assert.equal(asked.origin, club.base);
      assert.equal(asked.searchParams.get('resource'), club.server.mcpUrl, 'the token is for /mcp itself');
    });
  }
});

describe('the sign-in address, signed in through the consent page', { skip: browserSkip() }, () => {
  let club: ConsoleClub;
  let browser: Browser;
  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 1000 }, { oauth: {} });
    // Handles of their own: on PostgreSQL both clubs of this file share one database.
    await club.add('bea', 'member', { name: 'Bea' });
    await club.add('ann', 'member', { name: 'Ann' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  for (const [era, handle] of [
    ['legacy', 'bea'],
    ['modern', 'ann'],
  ] as [Era, string][]) {
    it(`a host (${era} era) that only lists and calls what it sees signs in, then sees and calls its tools`, async () => {
      const callback = await startCallback();
      const context = await browser.newContext();
      const page = await context.newPage();
      await addVirtualAuthenticator(context, page);
      try {
        // The principal has a passkey, and is signed out: the consent page asks for it.
        await page.goto(await club.link(handle));
        await page.getByRole('button', { name: 'Continue and sign in' }).click();
        await page.waitForURL(/passkeys\?done=welcome$/);
        await page.getByRole('button', { name: 'Register a passkey' }).click();
        await page.waitForURL(/done=added$/, { timeout: 15_000 });
        await context.clearCookies();

        const provider = new MemoryOAuthProvider(callback.url, `Listed-Tools Host ${era}`);
        const address = `${club.base}/mcp/sign-in`;
        const first = oauthClient(address, provider, era);
        // The host's very first act, connecting, starts the sign-in: it never had to call an unseen tool.
        await assert.rejects(first.client.connect(first.transport), UnauthorizedError);
        await consentInBrowser(page, provider.authorizationUrls.at(-1)!, {
          scopes: ['inbox', 'mandate:read'],
        });
        await first.transport.finishAuth(await callback.next());

        const second = oauthClient(address, provider, era);
        await second.client.connect(second.transport);
        const names = (await second.client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('get_mandate'), names.join(', '));
        const mandate = await second.client.callTool({ name: 'get_mandate', arguments: {} });
        assert.notEqual(mandate.isError, true, JSON.stringify(mandate));
        await second.client.close();
      } finally {
        await context.close();
        await callback.close();
      }
    });
  }
});
