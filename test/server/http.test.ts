import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { revokeToken } from '../../src/admin/tokens.ts';
import { generateToken } from '../../src/core/tokens.ts';
import { startHttpServer, type RunningServer } from '../../src/server/index.ts';
import type { Logger } from '../../src/server/log.ts';
import { rawPost, spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

describe('the HTTP edge', () => {
  let club: TestClub;
  let member: string;
  before(async () => {
    club = await startClub();
    member = (await club.addMember('alice')).token;
    await club.addMember('ed');
  });
  after(() => club.close());

  async function expect401(authorization: string, reason: string, describe: RegExp) {
    const spy = spyOnHandler(club.registry, 'club_info');
    for (const path of ['/mcp', '/diagnose']) {
      const res =
        path === '/mcp'
          ? await rawPost(
              club.server.mcpUrl,
              JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'tools/call',
                params: { name: 'club_info', arguments: {} },
              }),
              { authorization },
            )
          : await fetch(`${club.server.url}/diagnose`, { headers: { authorization } });
      assert.equal(res.status, 401, `${path} ${reason}`);
      const challenge = res.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer /);
      assert.match(challenge, /error="invalid_token"/);
      assert.match(
        challenge,
        /resource_metadata="http:\/\/localhost:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
      );
      const body = (await res.json()) as { reason: string; error_description: string };
      assert.equal(body.reason, reason);
      assert.match(body.error_description, describe);
    }
    assert.equal(spy.calls, 0, 'no handler ran for a rejected credential');
  }

  it('401 for a malformed header', () => expect401('Basic dXNlcjpwYXNz', 'malformed', /not a Bearer/));
  it('401 for an empty bearer', () => expect401('Bearer ', 'malformed', /no token/));
  it('401 for a bearer that is not a Warden token', () =>
    expect401('Bearer abc.def.ghi', 'malformed', /not a Warden agent token/));
  it('401 for an unknown token', () => expect401(`Bearer ${generateToken()}`, 'unknown', /not known/));

  it('401 for an expired token', async () => {
    const { token, tokenId } = await club.addMember('old');
    const sql = (club.store as unknown as { sql: { run(s: string, p: unknown[]): Promise<number> } }).sql;
    await sql.run('UPDATE tokens SET expires_at = ? WHERE id = ?', ['2020-01-01T00:00:00.000Z', tokenId]);
    await expect401(`Bearer ${token}`, 'expired', /expired on 2020-01-01/);
  });

  it('401 for a revoked token, saying when', async () => {
    const { token, tokenId } = await club.addMember('gone');
    const t = await revokeToken(club.store, tokenId);
    await expect401(`Bearer ${token}`, 'revoked', new RegExp(`revoked on ${t.revokedAt}`));
  });

  it('401 for a token of a suspended principal', async () => {
    const { token } = await club.addMember('sus');
    const p = await club.store.getPrincipalByHandle('sus');
    await club.store.setPrincipalStatus(p!.id, 'suspended');
    await expect401(`Bearer ${token}`, 'suspended', /suspended/);
  });

  it('no Authorization header at all is the anonymous tier, and works', async () => {
    const res = await rawPost(club.server.mcpUrl, LIST);
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.equal((text.match(/"name":"/g) ?? []).length, 3);
  });

  it('a present, foreign Origin gets 403 before anything else', async () => {
    const spy = spyOnHandler(club.registry, 'club_info');
    for (const origin of ['http://evil.example', 'null', 'https://127.0.0.1.evil.example']) {
      const res = await rawPost(club.server.mcpUrl, LIST, { origin, authorization: `Bearer ${member}` });
      assert.equal(res.status, 403, origin);
      assert.equal(((await res.json()) as { error: string }).error, 'forbidden_origin');
    }
    const ok = await rawPost(club.server.mcpUrl, LIST, { origin: 'http://localhost:5173' });
    assert.equal(ok.status, 200);
    assert.equal(spy.calls, 0);
  });

  it('a DNS-rebound Host name gets 403', async () => {
    const port = new URL(club.server.url).port;
    const res = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/tiers', headers: { host: `attacker.example:${port}` } },
          (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      }, reject);
    });
    assert.equal(res, 403);
  });

  it('malformed JSON gets a JSON-RPC parse error as JSON, no HTML, no stack', async () => {
    const res = await rawPost(club.server.mcpUrl, '{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const body = (await res.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32700);
    assert.doesNotMatch(JSON.stringify(body), /at .*\.ts|<html/i);
  });

  it('an oversized body gets 413', async () => {
    const res = await rawPost(
      club.server.mcpUrl,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(2_000_000) } }),
    );
    assert.equal(res.status, 413);
  });

  it('serves RFC 9728 protected-resource metadata at both well-known paths', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const res = await fetch(`${club.server.url}${path}`);
      assert.equal(res.status, 200);
      const doc = (await res.json()) as { resource: string; scopes_supported: string[] };
      assert.equal(doc.resource, club.server.mcpUrl);
      assert.deepEqual(doc.scopes_supported, [
        'profile:write',
        'evidence:write',
        'inbox',
        'mandate:read',
        'consult',
        'vouch',
      ]);
    }
  });

  it('publishes the tier catalog at /tiers', async () => {
    const res = await fetch(`${club.server.url}/tiers`);
    const doc = (await res.json()) as {
      total: number;
      tiers: Record<string, { count: number }>;
      tools: { name: string; scope: string | null; tiers: string[] }[];
    };
    assert.equal(doc.total, 15);
    assert.deepEqual(Object.fromEntries(Object.entries(doc.tiers).map(([k, v]) => [k, v.count])), {
      anonymous: 3,
      candidate: 10,
      member: 14,
    });
    assert.deepEqual(doc.tools.find((t) => t.name === 'set_mandate')?.tiers, []);
  });

  it('answers unknown paths with JSON 404', async () => {
    const res = await fetch(`${club.server.url}/nothing-here`);
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /json/);
  });

  it('sets timeouts so slow clients cannot hold sockets', () => {
    assert.ok(club.server.http.headersTimeout > 0 && club.server.http.headersTimeout <= 30_000);
    assert.ok(club.server.http.requestTimeout > 0 && club.server.http.requestTimeout <= 60_000);
  });
});

/** One request with any method (fetch refuses TRACE): status, Allow and body. */
function send(url: string, method: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('/mcp serves POST only: every other method is 405 with Allow, and no fault is logged', () => {
  let club: TestClub;
  let server: RunningServer;
  let member: string;
  const logged: { level: string; event: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    info: (event, fields) => void logged.push({ level: 'info', event, ...(fields ? { fields } : {}) }),
    error: (event, fields) => void logged.push({ level: 'error', event, ...(fields ? { fields } : {}) }),
  };
  before(async () => {
    club = await startClub();
    member = (await club.addMember('alice')).token;
    server = await startHttpServer({
      store: club.store,
      registry: club.registry,
      logger,
      version: 'test',
      port: 0,
    });
  });
  after(async () => {
    await server.close();
    await club.close();
  });

  it('TRACE and other methods, with a credential and without: 405, Allow: POST, nothing logged', async () => {
    const spy = spyOnHandler(club.registry, 'club_info');
    logged.length = 0;
    for (const method of ['TRACE', 'PROPFIND', 'M-SEARCH', 'PUT', 'PATCH', 'OPTIONS'])
      for (const headers of [{}, { authorization: `Bearer ${member}` }] as Record<string, string>[]) {
        const r = await send(server.mcpUrl, method, headers);
        assert.equal(r.status, 405, `${method} ${JSON.stringify(headers)}`);
        assert.equal(r.allow, 'POST', method);
        assert.deepEqual(JSON.parse(r.body), {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed.' },
          id: null,
        });
      }
    assert.deepEqual(
      logged.filter((l) => l.event !== 'listening'),
      [],
      'a client asking with the wrong method is neither a fault nor worth a line',
    );
    assert.equal(spy.calls, 0);
  });

  it('GET and DELETE get the very answer the SDK gives them (it serves POST only, statelessly)', async () => {
    const sdk = createMcpHandler(() => {
      throw new Error('no instance is built for a method the SDK refuses');
    });
    for (const method of ['GET', 'DELETE']) {
      const ours = await send(server.mcpUrl, method, { accept: 'application/json, text/event-stream' });
      const theirs = await sdk.fetch(new Request('http://127.0.0.1/mcp', { method }));
      assert.equal(ours.status, theirs.status, method);
      assert.equal(ours.allow, theirs.headers.get('allow') ?? undefined, method);
      assert.equal(ours.body, await theirs.text(), method);
    }
    await sdk.close();
  });

  it('a bad credential is still 401 whatever the method: the credential is judged first', async () => {
    const r = await send(server.mcpUrl, 'TRACE', { authorization: 'Bearer wdn_nonsense' });
    assert.equal(r.status, 401);
  });
});
