import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { revokeToken } from '../../src/admin/tokens.ts';
import { startClub, type TestClub } from '../helpers/club.ts';
import { doctor, doctorJson } from './support.ts';

type Rewrite = (path: string, headers: Record<string, string | string[] | undefined>) => number | void;

/**
 * A reverse proxy in front of Warden that may rewrite a request's headers, or answer a
 * status of its own, depending on the path: the kind of gateway that makes /mcp and
 * /diagnose see different requests.
 */
async function startProxy(upstream: URL, rewrite: Rewrite): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    const status = rewrite(req.url ?? '/', headers);
    if (status) return void res.writeHead(status, { 'content-type': 'text/plain' }).end('blocked');
    const up = request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

async function stop(proxy: { server: Server }): Promise<void> {
  proxy.server.closeAllConnections();
  await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
}

describe('doctor cross-checks what tools/list served against what /diagnose claims', () => {
  let club: TestClub;
  let proxy: { url: string; server: Server };
  let token: string;
  before(async () => {
    club = await startClub();
    token = (await club.addMember('alice')).token;
    // Drops the Authorization header on /mcp only: /diagnose sees the member, tools/list serves anonymous.
    proxy = await startProxy(new URL(club.server.url), (path, headers) => {
      if (path.startsWith('/mcp')) delete headers['authorization'];
    });
  });
  after(async () => {
    await stop(proxy);
    await club.close();
  });

  it('says so loudly and trusts what was served', async () => {
    const { code, server } = await doctorJson([proxy.url, '--token', token, '--expect', 'member']);
    assert.equal(code, 1);
    assert.equal(server.status, 'mismatch');
    assert.equal(server.tools, 3);
    assert.equal(server.tier, 'anonymous', 'the tier that was really served, not the one claimed');
    const check = server.checks.find((c) => c.id === 'cross-check');
    assert.equal(check?.ok, false);
    assert.match(check?.message ?? '', /^CROSS-CHECK FAILED/);
    assert.ok(
      server.reasons.some((r) =>
        /\/diagnose says you see .*ask_agent.*, but tools\/list did not return them/.test(r),
      ),
      server.reasons.join('\n'),
    );
  });

  it('the same endpoint reached directly agrees with itself', async () => {
    const { code, server } = await doctorJson([club.server.mcpUrl, '--token', token, '--expect', 'member']);
    assert.equal(code, 0);
    assert.equal(server.checks.find((c) => c.id === 'cross-check')?.ok, true);
  });

  it('the human output shows the failed cross-check as a ✗ line', async () => {
    const run = await doctor([proxy.url, '--token', token]);
    assert.equal(run.code, 1);
    assert.match(run.out, /^ {2}✗ CROSS-CHECK FAILED/m);
  });
});

describe('doctor when /diagnose cannot be trusted or reached', () => {
  let club: TestClub;
  let token: string;
  before(async () => {
    club = await startClub();
    token = (await club.addMember('alice')).token;
  });
  after(() => club.close());

  it('a gateway that sends /diagnose a different credential: mismatch, exit 1', async () => {
    const { token: other, tokenId } = await club.addMember('bob');
    await revokeToken(club.store, tokenId);
    const proxy = await startProxy(new URL(club.server.url), (path, headers) => {
      if (path.startsWith('/diagnose')) headers['authorization'] = `Bearer ${other}`;
    });
    try {
      const { code, server } = await doctorJson([proxy.url, '--token', token]);
      assert.equal(code, 1);
      assert.equal(server.status, 'mismatch');
      assert.equal(server.tools, 14);
      assert.match(
        server.reasons[0] ?? '',
        /tools\/list served 14 tools, but \/diagnose refused the same credential: the token was revoked/,
      );
    } finally {
      await stop(proxy);
    }
  });

  it('a gateway that hides /diagnose: the tier is bounded from the catalog, and what is missing is said', async () => {
    const proxy = await startProxy(new URL(club.server.url), (path) =>
      path.startsWith('/diagnose') ? 404 : undefined,
    );
    try {
      const { code, server } = await doctorJson([proxy.url, '--token', token, '--expect', 'member']);
      assert.equal(code, 0);
      assert.equal(server.tier, 'member');
      assert.equal(server.tools, 14);
      assert.match(
        server.reasons[0] ?? '',
        /did not diagnose this caller \(GET \/diagnose answered HTTP 404\)/,
      );
      assert.ok(server.not_checked.some((n) => /only \/diagnose names the token/.test(n)));
    } finally {
      await stop(proxy);
    }
  });
});
