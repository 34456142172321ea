// The three ways a client becomes known: pre-registered by the operator, its client ID
// metadata document (fetched once, then cached), and dynamic registration with the
// application_type rules 2026-07-28 adopts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startConsoleClub, type ConsoleClub } from '../helpers/console.ts';
import {
  CALLBACK,
  METADATA_CA,
  authorizeUrl,
  codeFor,
  exchange,
  listWith,
  metadataDocument,
  pkce,
  serveMetadata,
  signIn,
  start,
  tokenRequest,
} from '../helpers/oauth.ts';

async function registerRaw(base: string, metadata: Record<string, unknown>) {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

void describe('how clients become known', () => {
  let club: ConsoleClub;
  before(async () => {
    club = await startConsoleClub(
      {},
      {
        oauth: {
          development: { privateMetadataHosts: true, metadataCa: METADATA_CA },
          clients: [
            {
              client_id: 'club-desk',
              client_name: 'Club Desk',
              redirect_uris: [CALLBACK],
              grant_types: ['authorization_code', 'refresh_token'],
              response_types: ['code'],
              token_endpoint_auth_method: 'none',
              application_type: 'native',
            },
          ],
        },
      },
    );
    await club.add('alice', 'member', { name: 'Alice' });
  });
  after(async () => club?.close());

  void it("a client pre-registered by the operator's configuration: shown as such, and it connects", async () => {
    const b = await signIn(club);
    const { res } = await start(b, authorizeUrl(club, 'club-desk', pkce()));
    assert.equal(res.status, 200);
    const page = await res.text();
    assert.match(page, /Club Desk/);
    assert.match(page, /registered by the club&#39;s operator|registered by the club's operator/);
    const p = pkce();
    const tokens = await exchange(club, 'club-desk', await codeFor(club, 'club-desk', p), p.verifier);
    assert.equal(tokens.status, 200);
  });

  void it('a client metadata document is fetched once and then served from the cache', async () => {
    const host = await serveMetadata((url) => metadataDocument(url, CALLBACK, 'Cached Agent'));
    try {
      for (let i = 0; i < 3; i++) {
        const b = await signIn(club);
        const { res } = await start(b, authorizeUrl(club, host.url, pkce()));
        assert.equal(res.status, 200);
        assert.match(await res.text(), /Cached Agent/);
      }
      assert.equal(host.fetches, 1);
    } finally {
      await host.close();
    }
  });

  void it('dynamic registration: a native client may use a loopback http redirect, not a loopback https one', async () => {
    const ok = await registerRaw(club.base, {
      client_name: 'Native',
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1:9/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    assert.equal(ok.status, 201);
    const bad = await registerRaw(club.base, {
      client_name: 'Native',
      application_type: 'native',
      redirect_uris: ['https://localhost/cb'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body['error'], 'invalid_redirect_uri');
  });

  void it('dynamic registration: plain http only on loopback (RFC 8252), refused elsewhere with the reason', async () => {
    const asWeb = (uri: string) =>
      registerRaw(club.base, {
        client_name: 'Web',
        redirect_uris: [uri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      });
    for (const uri of [
      'http://client.example/cb',
      'http://10.0.0.7:8080/cb',
      'http://localhost.evil.example/cb',
    ]) {
      const bad = await asWeb(uri);
      assert.equal(bad.status, 400, uri);
      assert.equal(bad.body['error'], 'invalid_redirect_uri', uri);
      assert.match(String(bad.body['error_description']), /only on a loopback host .*use https/, uri);
    }
    for (const uri of [
      'http://127.0.0.1:9/cb',
      'http://[::1]:9/cb',
      'http://localhost:9/cb',
      'https://client.example/cb',
    ]) {
      assert.equal((await asWeb(uri)).status, 201, uri);
    }
  });

  void it('a client metadata document naming a plain-http redirect elsewhere: refused, never offered consent', async () => {
    const host = await serveMetadata((url) => metadataDocument(url, 'http://client.example/cb', 'Doc Agent'));
    try {
      const b = await signIn(club);
      const { res } = await start(
        b,
        authorizeUrl(club, host.url, pkce(), { redirect_uri: 'http://client.example/cb' }),
      );
      assert.equal(res.status, 400);
      assert.match(await res.text(), /loopback/);
    } finally {
      await host.close();
    }
  });

  void it('dynamic registration: a web client may not use an app scheme', async () => {
    const bad = await registerRaw(club.base, {
      client_name: 'Web',
      application_type: 'web',
      redirect_uris: ['myapp://callback'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body['error'], 'invalid_redirect_uri');
  });

  void it('revocation (RFC 7009): a revoked access token is refused at /mcp, a revoked refresh token cannot refresh', async () => {
    const p = pkce();
    const tokens = await exchange(club, 'club-desk', await codeFor(club, 'club-desk', p), p.verifier);
    const revoke = (token: string) =>
      fetch(`${club.base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: 'club-desk' }).toString(),
      });
    assert.equal((await listWith(club.server.mcpUrl, tokens.body['access_token']!)).status, 200);
    assert.equal((await revoke(tokens.body['access_token']!)).status, 200);
    assert.equal((await listWith(club.server.mcpUrl, tokens.body['access_token']!)).status, 401);
    assert.equal((await revoke(tokens.body['refresh_token']!)).status, 200);
    const refresh = await tokenRequest(club.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body['refresh_token']!,
      client_id: 'club-desk',
    });
    assert.equal(refresh.status, 400);
  });

  void it('metadata: RFC 9728 names the authorization server and scopes; RFC 8414 says what the flow requires', async () => {
    const prm = (await (
      await fetch(`${club.base}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as Record<string, unknown>;
    assert.deepEqual(prm['authorization_servers'], [club.base]);
    assert.equal(prm['resource'], club.server.mcpUrl);
    assert.ok(!(prm['scopes_supported'] as string[]).includes('mandate:write'));
    const as = (await (await fetch(`${club.base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(as['issuer'], club.base);
    assert.equal(as['client_id_metadata_document_supported'], true);
    assert.deepEqual(as['code_challenge_methods_supported'], ['S256']);
    assert.equal(as['authorization_response_iss_parameter_supported'], true);
    assert.equal(as['revocation_endpoint'], `${club.base}/oauth/revoke`);
    assert.equal(as['registration_endpoint'], `${club.base}/oauth/register`);
    assert.deepEqual(as['response_types_supported'], ['code']);
  });
});
