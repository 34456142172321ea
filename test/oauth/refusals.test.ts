// Every refusal of the authorization flow, each its own test, each proving that nothing
// was issued: no authorization code, no access or refresh token, no connection row.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { spyOnHandler } from '../helpers/club.ts';
import { setStatus } from '../../src/admin/principals.ts';
import { startConsoleClub, type ConsoleClub } from '../helpers/console.ts';
import {
  CALLBACK,
  METADATA_CA,
  answer,
  authorizeUrl,
  codeFor,
  exchange,
  signIn,
  start,
  listWith,
  metadataDocument,
  pkce,
  register,
  serveMetadata,
  tokenRequest,
} from '../helpers/oauth.ts';
import type { SqlExecutor } from '../../src/store/sql.ts';
import { startHttpServer, silentLogger } from '../../src/server/index.ts';
import { createAuthorizationServer, resolveAccessToken } from '../../src/oauth/index.ts';

/** What the authorization server has issued so far, counted in the store. */
async function issued(club: ConsoleClub) {
  const sql = (club.store as unknown as { sql: SqlExecutor }).sql;
  const rows = await sql.all(`SELECT model, COUNT(*) AS n FROM oauth_records GROUP BY model`);
  const count = (m: string) => Number(rows.find((r) => r['model'] === m)?.['n'] ?? 0);
  const connections = (await sql.all(`SELECT id FROM tokens WHERE origin = 'oauth'`)).length;
  return {
    codes: count('AuthorizationCode'),
    access: count('AccessToken'),
    refresh: count('RefreshToken'),
    connections,
  };
}

const NOTHING = { codes: 0, access: 0, refresh: 0, connections: 0 };

/** The OAuth connections' rows as the principal's token list shows them: live or revoked. */
async function connectionRows(club: ConsoleClub) {
  const sql = (club.store as unknown as { sql: SqlExecutor }).sql;
  return sql.all(`SELECT id, revoked_at FROM tokens WHERE origin = 'oauth'`);
}

void describe('OAuth refusals', () => {
  let club: ConsoleClub;
  let clientId: string;

  before(async () => {
    club = await startConsoleClub(
      {},
      { oauth: { codeTtl: 2, development: { privateMetadataHosts: true, metadataCa: METADATA_CA } } },
    );
    await club.add('alice', 'member', { name: 'Alice' });
  });
  after(async () => club?.close());

  /** A metadata document the server must not take: 400 invalid_client, nothing issued. */
  async function assertMetadataRefused(host: { url: string; close(): Promise<void> }): Promise<void> {
    try {
      const b = await signIn(club);
      const { res } = await start(b, authorizeUrl(club, host.url, pkce()));
      assert.equal(res.status, 400);
      assert.match(await res.text(), /invalid_client/);
      assert.deepEqual(await issued(club), NOTHING);
    } finally {
      await host.close();
    }
  }

  beforeEach(async () => {
    const sql = (club.store as unknown as { sql: SqlExecutor }).sql;
    await sql.run(`DELETE FROM oauth_records`);
    await sql.run(`DELETE FROM tokens WHERE origin = 'oauth'`);
    const r = await register(club.base, CALLBACK);
    assert.equal(r.status, 201);
    clientId = String(r.body['client_id']);
  });

  void it('no PKCE: refused at the authorization endpoint, before any consent page', async () => {
    const b = await signIn(club);
    const { url } = await start(b, authorizeUrl(club, clientId, null));
    const back = new URL(url);
    assert.equal(back.origin + back.pathname, CALLBACK);
    assert.equal(back.searchParams.get('error'), 'invalid_request');
    assert.match(back.searchParams.get('error_description') ?? '', /PKCE/i);
    assert.deepEqual(await issued(club), NOTHING);
  });

  void it('plain PKCE: refused, only S256 is accepted', async () => {
    const b = await signIn(club);
    const p = pkce();
    const { url } = await start(
      b,
      authorizeUrl(club, clientId, null, { code_challenge: p.verifier, code_challenge_method: 'plain' }),
    );
    const back = new URL(url);
    assert.equal(back.searchParams.get('error'), 'invalid_request');
    assert.match(back.searchParams.get('error_description') ?? '', /code_challenge_method/);
    assert.deepEqual(await issued(club), NOTHING);
  });

  void it('a wrong verifier: the code is not exchanged, no token issued', async () => {
    const p = pkce();
    const code = await codeFor(club, clientId, p);
    const r = await exchange(club, clientId, code, pkce().verifier);
    assert.equal(r.status, 400);
    assert.equal(r.body['error'], 'invalid_grant');
    const now = await issued(club);
    assert.equal(now.access, 0);
    assert.equal(now.refresh, 0);
  });

  void it('a missing resource: refused (invalid_target), nothing issued', async () => {
    const b = await signIn(club);
    const { url } = await start(b, authorizeUrl(club, clientId, pkce(), { resource: '' }));
    assert.equal(new URL(url).searchParams.get('error'), 'invalid_target');
    assert.deepEqual(await issued(club), NOTHING);
  });

  void it('a foreign resource: refused (invalid_target), nothing issued', async () => {
    const b = await signIn(club);
    const { url } = await start(
      b,
      authorizeUrl(club, clientId, pkce(), { resource: 'https://elsewhere.example/mcp' }),
    );
    const back = new URL(url);
    assert.equal(back.searchParams.get('error'), 'invalid_target');
    assert.deepEqual(await issued(club), NOTHING);
  });

  void it('a code used twice: refused, and the tokens issued from it are revoked', async () => {
    const p = pkce();
    const code = await codeFor(club, clientId, p);
    const first = await exchange(club, clientId, code, p.verifier);
    assert.equal(first.status, 200);
    assert.equal((await listWith(club.server.mcpUrl, first.body['access_token']!)).status, 200);
    const second = await exchange(club, clientId, code, p.verifier);
    assert.equal(second.status, 400);
    assert.equal(second.body['error'], 'invalid_grant');
    assert.equal((await listWith(club.server.mcpUrl, first.body['access_token']!)).status, 401);
    const refresh = await tokenRequest(club.base, {
      grant_type: 'refresh_token',
      refresh_token: first.body['refresh_token']!,
      client_id: clientId,
    });
    assert.equal(refresh.status, 400);
    const now = await issued(club);
    assert.equal(now.access, 0);
    assert.equal(now.refresh, 0);
    const rows = await connectionRows(club);
    assert.equal(rows.length, 1);
    assert.ok(rows[0]!['revoked_at'], 'the connection is marked revoked with its grant, not left live');
  });

  void it('an expired code: refused, no token issued', async () => {
    const p = pkce();
    const code = await codeFor(club, clientId, p);
    await new Promise((r) => setTimeout(r, 3_100)); // the code lives 2 s in this club
    const r = await exchange(club, clientId, code, p.verifier);
    assert.equal(r.status, 400);
    assert.equal(r.body['error'], 'invalid_grant');
    assert.equal((await issued(club)).access, 0);
  });

  void it('consent denied: the client receives access_denied, and nothing is issued', async () => {
    const b = await signIn(club);
    const { res, url } = await start(b, authorizeUrl(club, clientId, pkce()));
    const back = await answer(b, url, await res.text(), 'deny');
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('iss'), club.base);
    assert.equal(back.searchParams.get('code'), null);
    assert.deepEqual(await issued(club), NOTHING);
  });

  void it("a suspended principal's refresh: refused, and their access token is refused at /mcp", async () => {
    const p = pkce();
    const tokens = await exchange(club, clientId, await codeFor(club, clientId, p), p.verifier);
    assert.equal(tokens.status, 200);
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    await club.store.setPrincipalStatus(alice.id, 'suspended');
    try {
      const r = await tokenRequest(club.base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.body['refresh_token']!,
        client_id: clientId,
      });
      assert.equal(r.status, 400);
      assert.equal(r.body['error'], 'invalid_grant');
      const at = await listWith(club.server.mcpUrl, tokens.body['access_token']!);
      assert.equal(at.status, 401);
      assert.equal((await issued(club)).access, 1, 'no new access token');
    } finally {
      await club.store.setPrincipalStatus(alice.id, 'member');
    }
  });

  void it('suspension ends OAuth grants for good: reinstating the principal brings no old token back', async () => {
    const p = pkce();
    const tokens = await exchange(club, clientId, await codeFor(club, clientId, p), p.verifier);
    assert.equal(tokens.status, 200);
    const access = tokens.body['access_token']!;
    assert.equal((await listWith(club.server.mcpUrl, access)).status, 200, 'the connection works before');
    const before = await issued(club);
    assert.ok(before.refresh >= 1 && before.access >= 1);
    // The operator's acts, as the console and the CLI do them.
    await setStatus(club.store, 'alice', 'suspended');
    await setStatus(club.store, 'alice', 'member');
    const at = await listWith(club.server.mcpUrl, access);
    assert.equal(at.status, 401, 'the old access token stays dead after reinstatement');
    assert.match(at.challenge, /invalid_token/);
    const r = await tokenRequest(club.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body['refresh_token']!,
      client_id: clientId,
    });
    assert.equal(r.status, 400);
    assert.equal(r.body['error'], 'invalid_grant');
    const after = await issued(club);
    assert.equal(after.access, 0, 'no access token of alice survives, and none was issued');
    assert.equal(after.refresh, 0);
    assert.ok(
      (await connectionRows(club)).every((c) => c['revoked_at'] !== null),
      'every connection revoked',
    );
    // Signing in anew is the way back, and it works.
    const again = pkce();
    const fresh = await exchange(club, clientId, await codeFor(club, clientId, again), again.verifier);
    assert.equal(fresh.status, 200);
    assert.equal((await listWith(club.server.mcpUrl, fresh.body['access_token']!)).status, 200);
  });

  void it('a spent refresh token replayed: refused, and the whole connection is revoked', async () => {
    const p = pkce();
    const tokens = await exchange(club, clientId, await codeFor(club, clientId, p), p.verifier);
    const rotated = await tokenRequest(club.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body['refresh_token']!,
      client_id: clientId,
    });
    assert.equal(rotated.status, 200);
    const replay = await tokenRequest(club.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body['refresh_token']!,
      client_id: clientId,
    });
    assert.equal(replay.status, 400);
    assert.equal((await listWith(club.server.mcpUrl, rotated.body['access_token']!)).status, 401);
    const rows = await connectionRows(club);
    assert.equal(rows.length, 1);
    assert.ok(rows[0]!['revoked_at'], 'the connection is marked revoked with its grant, not left live');
  });

  void it('a token issued for another audience is refused at /mcp with 401, and no handler runs', async () => {
    // A second deployment on the same store, at another address: its tokens name its own /mcp.
    const other = createAuthorizationServer({ store: club.store });
    const otherServer = await startHttpServer({
      store: club.store,
      registry: club.registry,
      logger: silentLogger,
      version: 'test',
      port: 0,
      oauth: {
        owns: other.owns,
        handle: other.handle,
        resolve: (token, b) => resolveAccessToken(other, b, token),
        issuer: other.issuer,
      },
    });
    try {
      const p = pkce();
      const tokens = await exchange(club, clientId, await codeFor(club, clientId, p), p.verifier);
      assert.equal(tokens.status, 200);
      const spy = spyOnHandler(club.registry, 'get_mandate');
      const res = await fetch(otherServer.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.body['access_token']}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_mandate', arguments: {} },
        }),
      });
      assert.equal(res.status, 401);
      const body = (await res.json()) as { reason: string; error_description: string };
      assert.equal(body.reason, 'wrong_audience');
      assert.match(body.error_description, new RegExp(club.server.mcpUrl.replace(/[/.]/g, '\\$&')));
      assert.equal(spy.calls, 0);
      // The same token at the server it was issued for works.
      assert.equal((await listWith(club.server.mcpUrl, tokens.body['access_token']!)).status, 200);
    } finally {
      await otherServer.close();
    }
  });

  void it('a redirect URI not in the client metadata document: refused on our page, never sent there', async () => {
    const host = await serveMetadata((url) =>
      metadataDocument(url, 'http://127.0.0.1:9/elsewhere', 'Doc Agent'),
    );
    try {
      const b = await signIn(club);
      const { res } = await start(b, authorizeUrl(club, host.url, pkce()));
      assert.equal(res.status, 400, 'an error page here, not a redirect to an unregistered address');
      assert.match(await res.text(), /redirect_uri/);
      assert.ok(host.fetches >= 1, 'the document was read');
      assert.deepEqual(await issued(club), NOTHING);
    } finally {
      await host.close();
    }
  });

  void it('a metadata document larger than the limit: refused, nothing issued', async () => {
    const host = await serveMetadata((url) => ({
      ...metadataDocument(url, CALLBACK, 'Big Agent'),
      padding: 'x'.repeat(6 * 1024),
    }));
    await assertMetadataRefused(host);
  });

  void it('a metadata document that answers too slowly: refused, nothing issued', async () => {
    const host = await serveMetadata((url) => metadataDocument(url, CALLBACK, 'Slow Agent'), {
      delayMs: 4_000,
    });
    await assertMetadataRefused(host);
  });
});

void describe('OAuth refusals of metadata documents without the development flag', () => {
  let club: ConsoleClub;
  before(async () => {
    club = await startConsoleClub({}, { oauth: {} });
    await club.add('alice', 'member', { name: 'Alice' });
  });
  after(async () => club?.close());

  void it('a metadata document on a loopback (private) address: refused without fetching it', async () => {
    const host = await serveMetadata((url) => metadataDocument(url, CALLBACK, 'Local Agent'));
    try {
      const b = await signIn(club);
      const { res } = await start(b, authorizeUrl(club, host.url, pkce()));
      assert.equal(res.status, 400);
      assert.match(await res.text(), /invalid_client/);
      assert.equal(host.fetches, 0, 'never fetched');
      assert.deepEqual(await issued(club), NOTHING);
    } finally {
      await host.close();
    }
  });

  void it('a metadata document over http: not a client id at all, refused without fetching it', async () => {
    let fetches = 0;
    const plain = createServer((_req, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/client.json`;
      const b = await signIn(club);
      const { res } = await start(b, authorizeUrl(club, url, pkce()));
      assert.equal(res.status, 400);
      assert.match(await res.text(), /invalid_client/);
      assert.equal(fetches, 0);
      assert.deepEqual(await issued(club), NOTHING);
    } finally {
      plain.closeAllConnections();
      await new Promise((r) => plain.close(r));
    }
  });
});
