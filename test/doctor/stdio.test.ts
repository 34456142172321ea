import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { changeMandate } from '../../src/admin/mandate.ts';
import { revokeToken } from '../../src/admin/tokens.ts';
import { startClub, type TestClub } from '../helpers/club.ts';
import { BIN, doctorJson, tempDir, writeConfig } from './support.ts';

describe('doctor runs stdio entries as the client would', () => {
  let club: TestClub;
  let tmp: ReturnType<typeof tempDir>;
  before(async () => {
    club = await startClub();
    tmp = tempDir();
  });
  after(async () => {
    await club.close();
    tmp.remove();
  });

  /**
   * The doctor against `warden stdio` entries, with a generous timeout: starting the
   * process is slow on a loaded machine, and these tests are not about the timeout.
   */
  const doctorWarden = (args: string[]) => doctorJson([...args, '--timeout', '60']);

  /** A Claude Desktop entry that runs `node bin/warden.js stdio` on the test club's SQLite file. */
  function desktopConfig(dir: string, token?: string): string {
    const env: Record<string, string> = { WARDEN_DB: join(club.dir, 'club.db') };
    if (token) env['WARDEN_TOKEN'] = token;
    return writeConfig(tmp.dir, `${dir}/claude_desktop_config.json`, {
      // Without a token, the entry asks for the anonymous tier (warden stdio refuses otherwise).
      mcpServers: {
        club: { command: process.execPath, args: [BIN, 'stdio', ...(token ? [] : ['--anonymous'])], env },
      },
    });
  }

  it('a member token with a narrowed mandate: tier and reasons come from get_mandate over the same pipe', async () => {
    const { token } = await club.addMember('stdio-sara');
    await changeMandate({ store: club.store, registry: club.registry }, 'stdio-sara', {
      scopes: 'profile:write,evidence:write,inbox,mandate:read,consult',
    });
    const { code, server } = await doctorWarden([
      '--config',
      desktopConfig('member', token),
      '--expect',
      'member',
    ]);
    assert.equal(code, 0);
    assert.equal(server.transport, 'stdio');
    assert.equal(server.url, null);
    assert.equal(server.server, 'warden');
    assert.equal(server.tier, 'member');
    assert.equal(server.tools, 12);
    assert.equal(server.total, 15);
    assert.ok(
      server.reasons.includes(
        "`vouch` is missing because your principal's mandate does not grant it (hides list_candidates, review_candidate)",
      ),
      server.reasons.join('\n'),
    );
    assert.equal(
      server.checks.find((c) => c.id === 'cross-check')?.message,
      'tools/list agrees with get_mandate',
    );
    assert.ok(server.not_checked.some((n) => /no HTTP beside stdio/.test(n)));
    assert.equal(server.protected_resource_metadata, null);
  });

  it('no WARDEN_TOKEN in the entry: anonymous, 3 tools, and what could not be checked is said', async () => {
    const { code, server } = await doctorWarden(['--config', desktopConfig('anon'), '--expect', 'candidate']);
    assert.equal(code, 1);
    assert.equal(server.tier, 'anonymous');
    assert.equal(server.tools, 3);
    assert.equal(server.total, null);
    assert.deepEqual(server.reasons, ["this entry's env sets no WARDEN_TOKEN"]);
    assert.ok(server.not_checked.some((n) => /size of the catalog/.test(n)));
    const cross = server.checks.find((c) => c.id === 'cross-check');
    assert.equal(cross?.ok, null, 'no claim of agreement when there was nothing to compare');
    assert.match(cross?.message ?? '', /club_info names the tier but not the tools/);
    assert.match(server.fix ?? '', /^add WARDEN_TOKEN to this entry's env/);
  });

  it('no WARDEN_TOKEN and no --anonymous: the refusal to start is said plainly, with both fixes', async () => {
    const file = writeConfig(tmp.dir, 'no-token/claude_desktop_config.json', {
      mcpServers: {
        club: {
          command: process.execPath,
          args: [BIN, 'stdio'],
          env: { WARDEN_DB: join(club.dir, 'club.db') },
        },
      },
    });
    const { code, server } = await doctorWarden(['--config', file]);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected', 'not "did not speak MCP"');
    assert.equal(server.server, 'warden');
    assert.equal(server.tier, null);
    assert.deepEqual(server.reasons, [
      "the server refused to start without a token: this entry's env sets no WARDEN_TOKEN, and warden stdio serves the anonymous tier only when its args ask for it with --anonymous",
    ]);
    assert.ok(server.checks.some((c) => c.id === 'reachable' && c.message.startsWith('started: ')));
    assert.ok(
      server.checks.some((c) => c.id === 'token' && c.message.startsWith('no token (the process exited)')),
    );
    assert.ok(!server.checks.some((c) => c.id === 'mcp-handshake'));
    assert.match(
      server.fix ?? '',
      /^add WARDEN_TOKEN to this entry's env, with a token from: warden admin token issue /,
    );
    assert.match(
      server.fix ?? '',
      /; or, to serve the anonymous tier on purpose, add --anonymous to its args$/,
    );
  });

  it('a revoked WARDEN_TOKEN: the process refuses to start, and its reason is read from stderr', async () => {
    const { token, tokenId } = await club.addMember('stdio-rex');
    await revokeToken(club.store, tokenId);
    const { code, server } = await doctorWarden(['--config', desktopConfig('revoked', token)]);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.equal(server.server, 'warden');
    assert.match(server.reasons[0] ?? '', /^the token was revoked on \d{4}-/);
    assert.ok(server.checks.some((c) => c.id === 'token' && /the process exited/.test(c.message)));
    assert.ok(server.checks.some((c) => c.id === 'reachable' && c.message.startsWith('started: ')));
  });

  it('a WARDEN_TOKEN that is not a Warden token: rejected as malformed, in words about WARDEN_TOKEN', async () => {
    const { code, server } = await doctorWarden(['--config', desktopConfig('malformed', 'not-a-token')]);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.match(server.reasons[0] ?? '', /^WARDEN_TOKEN is malformed: /);
    assert.equal(server.fix, 'set WARDEN_TOKEN to a Warden agent token (wdn_…)');
  });

  it('a command that starts but never speaks MCP: exit 2 after the timeout, and the process is gone', async () => {
    const file = writeConfig(tmp.dir, 'silent/.mcp.json', {
      mcpServers: {
        quiet: {
          command: process.execPath,
          args: ['-e', 'console.error("just idling"); setInterval(() => {}, 1000)'],
        },
      },
    });
    const started = Date.now();
    const { code, server } = await doctorJson(['--config', file, '--timeout', '1']);
    assert.equal(code, 2);
    assert.equal(server.status, 'not_mcp');
    assert.ok(Date.now() - started < 10_000);
    assert.match(
      server.reasons[0] ?? '',
      /did not speak MCP: no answer before the timeout \(stderr: just idling\)/,
    );
  });

  it('a command that does not exist: exit 2', async () => {
    const file = writeConfig(tmp.dir, 'missing/.mcp.json', {
      mcpServers: { club: { command: join(tmp.dir, 'no-such-command'), args: [] } },
    });
    const { code, server } = await doctorJson(['--config', file]);
    assert.equal(code, 2);
    assert.equal(server.status, 'unreachable');
    assert.match(server.reasons[0] ?? '', /^could not start/);
  });
});
