// What `warden serve` says when it starts: true for the flags given (the anonymous tier, or a
// 401 under --require-sign-in), every address at the one public origin, where passkeys work.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { serveBanner, type ServeFacts } from '../../src/cli/serve-banner.ts';

const BIN = join(import.meta.dirname, '../../bin/warden.js');

const FACTS: ServeFacts = {
  version: '0.1.0',
  url: 'http://localhost:8787',
  mcpUrl: 'http://localhost:8787/mcp',
  store: { kind: 'sqlite', where: '.warden/warden.db', principals: 1 },
  dbHint: '',
  requireSignIn: false,
};

describe('the serve banner', () => {
  it('promises the anonymous tier only when there is one', () => {
    const open = serveBanner(FACTS);
    assert.match(open, /no token → anonymous tier \(3 tools\)/);
    assert.match(
      open,
      /OAuth: a host that signs in is given http:\/\/localhost:8787\/mcp\/sign-in \(a 401 at connect/,
    );
    assert.match(open, /at http:\/\/localhost:8787\/mcp a client starts in the anonymous tier/);
    const closed = serveBanner({ ...FACTS, requireSignIn: true });
    assert.doesNotMatch(closed, /anonymous tier \(3 tools\)|starts in the anonymous tier/);
    assert.match(closed, /no token → HTTP 401 at connect \(--require-sign-in: there is no anonymous tier\)/);
    assert.match(
      closed,
      /is answered 401 at connect, and its principal signs in on the console's consent page/,
    );
  });

  it('gives every address at the one public origin, and a link command that builds links there', () => {
    const banner = serveBanner(FACTS);
    assert.match(banner, /MCP server at http:\/\/localhost:8787\/mcp\n/);
    assert.match(banner, /console: http:\/\/localhost:8787\/console\/\n/);
    assert.match(banner, /tier catalog: http:\/\/localhost:8787\/tiers/);
    assert.doesNotMatch(banner, /127\.0\.0\.1/);
    // login-link's own default is this very origin, so the command needs no --public-url.
    assert.match(banner, /login-link HANDLE\n/);
    const elsewhere = serveBanner({
      ...FACTS,
      url: 'https://club.example.org',
      mcpUrl: 'https://club.example.org/mcp',
    });
    assert.match(elsewhere, /login-link HANDLE --public-url https:\/\/club\.example\.org\n/);
    assert.doesNotMatch(elsewhere, /passkeys need a host name/);
    const ip = serveBanner({
      ...FACTS,
      url: 'http://192.168.1.20:8787',
      mcpUrl: 'http://192.168.1.20:8787/mcp',
    });
    assert.match(
      ip,
      /console: http:\/\/192\.168\.1\.20:8787\/console\/ \(an IP address: passkeys need a host name.*--public-url/,
    );
  });

  it('suggests the first principal only to an empty store, and signing in to one that has principals', () => {
    const empty = serveBanner({ ...FACTS, store: { ...FACTS.store, principals: 0 } });
    assert.match(empty, /No principals yet/);
    assert.match(empty, /admin principal add alice --status member --name "Alice" --operator\n/);
    assert.match(empty, /admin principal login-link alice\n/);
    const some = serveBanner(FACTS);
    assert.doesNotMatch(some, /principal add/, 'a store with principals is not told to add alice again');
    assert.match(some, /admin principal list\n/);
    assert.match(some, /admin operator grant HANDLE/);
  });
});

describe('warden serve --require-sign-in', () => {
  it('prints a banner without the anonymous tier, and means it: /mcp without a token is a 401', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-serve-'));
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--db', join(dir, 'club.db'), '--require-sign-in'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no banner: ${text}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('Authorization: Bearer $TOKEN')) {
            clearTimeout(timer);
            resolve(text);
          }
        });
      });
      assert.doesNotMatch(out, /anonymous tier \(3 tools\)/);
      assert.match(out, /no token → HTTP 401 at connect/);
      const console = /console: (http:\/\/localhost:\d+)\/console\/\n/.exec(out);
      assert.ok(console, out);
      const mcp = /MCP server at (http:\/\/localhost:\d+\/mcp)/.exec(out)![1]!;
      const res = await fetch(mcp, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
      assert.equal(res.status, 401);
      const signIn = await fetch(`${console[1]}/console/signin`);
      assert.equal(signIn.status, 200, 'the console answers at the address the banner gives');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
