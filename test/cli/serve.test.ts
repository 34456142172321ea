// What `warden serve` says when it starts: true for the flags given (the anonymous tier, or a
// 401 under --require-sign-in), and an address where passkeys work.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { consoleAddress, serveBanner, type ServeFacts } from '../../src/cli/serve-banner.ts';

const BIN = join(import.meta.dirname, '../../bin/warden.js');

const FACTS: ServeFacts = {
  version: '0.1.0',
  url: 'http://127.0.0.1:8787',
  mcpUrl: 'http://127.0.0.1:8787/mcp',
  store: { kind: 'sqlite', where: '.warden/warden.db', principals: 1 },
  dbHint: '',
  requireSignIn: false,
};

describe('the serve banner', () => {
  it('promises the anonymous tier only when there is one', () => {
    const open = serveBanner(FACTS);
    assert.match(open, /no token → anonymous tier \(3 tools\)/);
    assert.match(open, /starts in the anonymous tier; at its first call beyond it \(a 401\)/);
    const closed = serveBanner({ ...FACTS, requireSignIn: true });
    assert.doesNotMatch(closed, /anonymous tier \(3 tools\)|starts in the anonymous tier/);
    assert.match(closed, /no token → HTTP 401 at connect \(--require-sign-in: there is no anonymous tier\)/);
    assert.match(
      closed,
      /is answered 401 at connect, and its principal signs in on the console's consent page/,
    );
  });

  it('offers the console at localhost, saying why, when the server listens on a loopback address', () => {
    const banner = serveBanner(FACTS);
    assert.match(
      banner,
      /console: http:\/\/localhost:8787\/console\/ \(localhost, not 127\.0\.0\.1: passkeys need a host name\)/,
    );
    assert.match(banner, /login-link HANDLE --public-url http:\/\/localhost:8787\n/);
    assert.match(
      banner,
      /MCP server at http:\/\/127\.0\.0\.1:8787\/mcp/,
      'agents keep the address it listens on',
    );
  });

  const ADDRESSES: [name: string, base: string, shown: string, note: RegExp | null][] = [
    ['a host name', 'https://club.example.org', 'https://club.example.org', null],
    ['localhost', 'http://localhost:8787', 'http://localhost:8787', null],
    ['127.0.0.1', 'http://127.0.0.1:8787', 'http://localhost:8787', /not 127\.0\.0\.1/],
    ['another loopback address', 'http://127.0.0.2:9000', 'http://localhost:9000', /not 127\.0\.0\.2/],
    ['IPv6 loopback', 'http://[::1]:8787', 'http://localhost:8787', /not \[::1\]/],
    [
      'every address',
      'http://0.0.0.0:8787',
      'http://localhost:8787',
      /on this machine; from another.*--public-url/,
    ],
    [
      'a LAN address',
      'http://192.168.1.20:8787',
      'http://192.168.1.20:8787',
      /signs in with links only.*--public-url/,
    ],
  ];
  for (const [name, base, shown, note] of ADDRESSES) {
    it(`names the console's address for ${name}`, () => {
      const at = consoleAddress(base);
      assert.equal(at.base, shown);
      if (note) assert.match(at.note ?? '', note);
      else assert.equal(at.note, null);
    });
  }
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
      const console = /console: (http:\/\/localhost:\d+)\/console\/ \(localhost, not 127\.0\.0\.1/.exec(out);
      assert.ok(console, out);
      const mcp = /MCP server at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)![1]!;
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
