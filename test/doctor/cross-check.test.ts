import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startClub, type TestClub } from '../helpers/club.ts';
import { doctor, doctorJson } from './support.ts';

/**
 * A reverse proxy that drops the Authorization header on /mcp only: /diagnose sees the
 * token and claims member, while tools/list is served to an anonymous caller.
 */
async function startStrippingProxy(upstream: URL): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    if ((req.url ?? '').startsWith('/mcp')) delete headers.authorization;
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

describe('doctor cross-checks what tools/list served against what /diagnose claims', () => {
  let club: TestClub;
  let proxy: { url: string; server: Server };
  let token: string;
  before(async () => {
    club = await startClub();
    token = (await club.addMember('alice')).token;
    proxy = await startStrippingProxy(new URL(club.server.url));
  });
  after(async () => {
    proxy.server.closeAllConnections();
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
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
