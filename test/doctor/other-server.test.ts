import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { doctor, doctorJson, startOtherServer, type OtherServer } from './support.ts';

describe('doctor against an MCP server that is not Warden', () => {
  let other: OtherServer;
  before(async () => {
    other = await startOtherServer();
  });
  after(() => other.close());

  it('reports what it can, and that the tier cannot be computed there', async () => {
    const { code, server } = await doctorJson([other.url]);
    assert.equal(code, 0);
    assert.equal(server.server, 'other');
    assert.equal(server.tier, null);
    assert.equal(server.tools, 2);
    assert.deepEqual([...server.tool_names].sort(), ['alerts', 'forecast']);
    assert.equal(server.total, null);
    assert.deepEqual(server.server_info, { name: 'weather-station', version: '3.1.4' });
    assert.ok(server.capabilities?.includes('tools'));
    assert.match(server.protocol ?? '', /^\d{4}-\d\d-\d\d$/);
    assert.equal(server.protected_resource_metadata, false);
    assert.match(server.reasons[0] ?? '', /the tier cannot be computed: this server is not Warden/);
    assert.ok(server.checks.some((c) => c.id === 'protected-resource-metadata' && /absent/.test(c.message)));
  });

  it('--expect cannot be confirmed there: exit 1', async () => {
    const { code, server } = await doctorJson([other.url, '--expect', 'member']);
    assert.equal(code, 1);
    assert.equal(server.ok, false);
    assert.ok(server.reasons.includes('--expect member cannot be confirmed here'));
  });

  it('the human output lists the facts, one line each', async () => {
    const run = await doctor([other.url]);
    assert.equal(run.code, 0);
    assert.match(run.out, /✓ MCP \d{4}-\d\d-\d\d, server weather-station 3\.1\.4, capabilities: .*tools/);
    assert.match(run.out, /✓ tools\/list returned 2 tools/);
    assert.match(run.out, /· protected-resource metadata \(RFC 9728\): absent/);
    assert.match(run.out, /· the tier cannot be computed/);
  });
});

describe('doctor against a server that is not Warden and wants OAuth', () => {
  it('reports the refusal and the protected-resource metadata it found: exit 1', async () => {
    const http = createServer((req, res) => {
      const origin = `http://${req.headers.host}`;
      if (req.url === '/.well-known/oauth-protected-resource/mcp') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [] }));
      }
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      });
      res.end(JSON.stringify({ error: 'invalid_token' }));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      const { code, server } = await doctorJson([url]);
      assert.equal(code, 1);
      assert.equal(server.status, 'rejected');
      assert.equal(server.server, 'other');
      assert.equal(server.tier, null);
      assert.equal(server.protected_resource_metadata, true);
      assert.match(server.reasons[0] ?? '', /^the server requires authorization \(HTTP 401/);
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
