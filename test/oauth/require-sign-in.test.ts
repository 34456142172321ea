// serve --require-sign-in: no anonymous tier at /mcp. A client without a token is told to
// sign in at connect (401 with the metadata pointer), which is when MCP clients start the
// OAuth flow; static and OAuth tokens work as ever, and /tiers stays public.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { doctorJson } from '../doctor/support.ts';
import { connectClient, rawPost } from '../helpers/club.ts';
import { startConsoleClub, type ConsoleClub } from '../helpers/console.ts';
import { CALLBACK, MemoryOAuthProvider, oauthClient } from '../helpers/oauth.ts';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

void describe('serve --require-sign-in', () => {
  let club: ConsoleClub;
  before(async () => {
    club = await startConsoleClub({}, { oauth: {}, requireSignIn: true });
    await club.add('alice', 'member', { name: 'Alice' });
  });
  after(async () => club?.close());

  void it('answers a request without a token 401 at connect, pointing at the metadata and naming the scopes', async () => {
    const res = await rawPost(club.server.mcpUrl, INITIALIZE);
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer /);
    assert.match(challenge, /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
    assert.match(challenge, /scope="profile:write evidence:write inbox mandate:read consult vouch"/);
    const body = (await res.json()) as { reason: string; error_description: string };
    assert.equal(body.reason, 'sign_in_required');
    assert.match(body.error_description, /serves nothing without a credential/);
  });

  for (const era of ['legacy', 'modern'] as const) {
    void it(`the SDK client (${era} era) with an OAuth provider is sent to authorize at connect`, async () => {
      const provider = new MemoryOAuthProvider(CALLBACK, `Sign-in Agent ${era}`);
      const { client, transport } = oauthClient(club.server.mcpUrl, provider, era);
      await assert.rejects(client.connect(transport), UnauthorizedError);
      const asked = provider.authorizationUrls.at(-1);
      assert.ok(asked, 'the client was sent to the authorization endpoint');
      assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(asked.searchParams.get('resource'), club.server.mcpUrl);
    });
  }

  void it('a static token still works, and /tiers stays public', async () => {
    const { token } = await club.issue('alice', 'inbox,consult', 'static');
    for (const era of ['legacy', 'modern'] as const) {
      const client = await connectClient(club.server.mcpUrl, token, era);
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
    }
    assert.equal((await fetch(`${club.base}/tiers`)).status, 200);
  });

  void it('warden doctor without a token says the server requires sign-in, through which server, and for which scopes', async () => {
    const { code, server } = await doctorJson([club.server.mcpUrl]);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.match(
      server.reasons[0] ?? '',
      /^the server requires sign-in and serves nothing without it: .* signs in through http:\/\/localhost:\d+/,
    );
    assert.match(
      server.reasons[0] ?? '',
      /scopes offered: profile:write, evidence:write, inbox, mandate:read, consult, vouch$/,
    );
    assert.match(server.fix ?? '', /signs in through OAuth, or give a Warden agent token/);
  });
});
