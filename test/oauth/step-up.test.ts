// Step-up the 2026-07-28 way (403 insufficient_scope), and the anonymous sign-in
// challenge (401), neither of which ever reveals a hidden tool: the answer depends on
// the caller, never on the name called.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { changeMandate } from '../../src/admin/mandate.ts';
import { spyOnHandler } from '../helpers/club.ts';
import { startConsoleClub, type ConsoleClub } from '../helpers/console.ts';
import {
  CALLBACK,
  MemoryOAuthProvider,
  codeFor,
  exchange,
  oauthClient,
  pkce,
  register,
} from '../helpers/oauth.ts';

async function call(mcpUrl: string, name: string, token?: string) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } }),
  });
  const text = await res.text();
  return { status: res.status, challenge: res.headers.get('www-authenticate'), text };
}

void describe('step-up and sign-in challenges', () => {
  let club: ConsoleClub;
  let clientId: string;
  let narrow: { access_token: string };

  before(async () => {
    club = await startConsoleClub({}, { oauth: {} });
    await club.add('alice', 'member', { name: 'Alice' });
    clientId = String((await register(club.base, CALLBACK, 'Narrow Agent')).body['client_id']);
    const p = pkce();
    const t = await exchange(club, clientId, await codeFor(club, clientId, p, ['inbox']), p.verifier);
    assert.equal(t.status, 200);
    narrow = t.body as unknown as { access_token: string };
  });
  after(async () => club?.close());

  void it('a connection granted less than its principal may grant: 403 insufficient_scope, handler never run', async () => {
    const spy = spyOnHandler(club.registry, 'get_mandate');
    const r = await call(club.server.mcpUrl, 'get_mandate', narrow.access_token);
    assert.equal(r.status, 403);
    assert.match(r.challenge ?? '', /^Bearer /);
    assert.match(r.challenge ?? '', /error="insufficient_scope"/);
    assert.match(r.challenge ?? '', /scope="profile:write evidence:write mandate:read consult vouch"/);
    assert.match(r.challenge ?? '', /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
    assert.equal(spy.calls, 0);
  });

  void it('the same answer, byte for byte, for a name that never existed and for a tool no agent ever gets', async () => {
    const hidden = await call(club.server.mcpUrl, 'get_mandate', narrow.access_token);
    const unknown = await call(club.server.mcpUrl, 'no_such_tool', narrow.access_token);
    const principalOnly = await call(club.server.mcpUrl, 'set_mandate', narrow.access_token);
    assert.deepEqual(unknown, hidden);
    assert.deepEqual(principalOnly, hidden);
  });

  void it('a visible tool is served as ever', async () => {
    const r = await call(club.server.mcpUrl, 'list_questions', narrow.access_token);
    assert.equal(r.status, 200);
    assert.doesNotMatch(r.text, /not found/);
  });

  void it("the SDK client answers the 403 by asking the principal again for its scopes and the challenge's", async () => {
    const provider = new MemoryOAuthProvider(CALLBACK, 'Narrow Agent');
    provider.info = { client_id: clientId };
    provider.saved = { access_token: narrow.access_token, token_type: 'Bearer', scope: 'inbox' };
    const { client, transport } = oauthClient(club.server.mcpUrl, provider, 'modern');
    await client.connect(transport);
    await assert.rejects(client.callTool({ name: 'get_mandate', arguments: {} }), UnauthorizedError);
    await client.close();
    const asked = provider.authorizationUrls.at(-1);
    assert.ok(asked, 'the client was sent to authorize again');
    const scopes = (asked.searchParams.get('scope') ?? '').split(' ');
    for (const s of ['inbox', 'mandate:read', 'consult']) assert.ok(scopes.includes(s), scopes.join(' '));
  });

  void it('nothing more to grant (the mandate allows only what was granted): "not found", as for any hidden tool', async () => {
    await changeMandate({ store: club.store, registry: club.registry }, 'alice', { scopes: 'inbox' });
    try {
      const hidden = await call(club.server.mcpUrl, 'get_mandate', narrow.access_token);
      const unknown = await call(club.server.mcpUrl, 'no_such_tool', narrow.access_token);
      assert.equal(hidden.status, 200);
      assert.equal(hidden.challenge, null);
      assert.match(hidden.text, /Tool get_mandate not found/);
      assert.equal(hidden.text.replace('get_mandate', 'X'), unknown.text.replace('no_such_tool', 'X'));
    } finally {
      await changeMandate({ store: club.store, registry: club.registry }, 'alice', {
        scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
      });
    }
  });

  void it('a static token never gets a challenge: a hidden tool is "not found" exactly as before', async () => {
    const { token } = await club.issue('alice', 'inbox', 'static-narrow');
    const r = await call(club.server.mcpUrl, 'get_mandate', token);
    assert.equal(r.status, 200);
    assert.equal(r.challenge, null);
    assert.match(r.text, /Tool get_mandate not found/);
  });

  void it('anonymous: a tool beyond the tier is a 401 sign-in challenge, the same for every name, handler never run', async () => {
    const spy = spyOnHandler(club.registry, 'ask_agent');
    const hidden = await call(club.server.mcpUrl, 'ask_agent');
    const unknown = await call(club.server.mcpUrl, 'no_such_tool');
    assert.equal(hidden.status, 401);
    assert.match(hidden.challenge ?? '', /resource_metadata="/);
    assert.match(
      hidden.challenge ?? '',
      /scope="profile:write evidence:write inbox mandate:read consult vouch"/,
    );
    assert.deepEqual(unknown, hidden);
    assert.equal(spy.calls, 0);
    const visible = await call(club.server.mcpUrl, 'club_info');
    assert.equal(visible.status, 200, 'the anonymous tier still works');
  });
});
