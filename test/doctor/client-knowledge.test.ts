import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startClub, type TestClub } from '../helpers/club.ts';
import { doctor, doctorJson, tempDir, writeConfig } from './support.ts';

/**
 * What each client really does with its file, and what the doctor may print: a url
 * entry Claude Desktop never starts is not healthy; a `${VAR:-default}` filled from
 * the default says so; no token is ever printed in full, in text or JSON.
 */
describe('doctor: per-client knowledge, defaults and masked tokens', () => {
  let club: TestClub;
  let tmp: ReturnType<typeof tempDir>;
  let token: string;
  before(async () => {
    club = await startClub();
    tmp = tempDir();
    token = (await club.addMember('alice')).token;
  });
  after(async () => {
    await club.close();
    tmp.remove();
  });

  it('a "url" entry in claude_desktop_config.json is reported as not started, never healthy', async () => {
    const file = writeConfig(tmp.dir, 'desktop/claude_desktop_config.json', {
      mcpServers: { club: { url: club.server.mcpUrl, headers: { Authorization: `Bearer ${token}` } } },
    });
    const { code, server } = await doctorJson(['--config', file]);
    assert.equal(server.ok, false);
    assert.equal(code, 2);
    assert.match(server.reasons.join(' '), /Claude Desktop does not start a "url" entry.*Connectors/);
  });

  it('the same url entry in Claude Code, Cursor and VS Code files is started and checked', async () => {
    for (const [path, content] of [
      ['code/.mcp.json', { mcpServers: { club: { type: 'http', url: club.server.mcpUrl } } }],
      ['cur/.cursor/mcp.json', { mcpServers: { club: { url: club.server.mcpUrl } } }],
      ['vs/.vscode/mcp.json', { servers: { club: { type: 'http', url: club.server.mcpUrl } } }],
    ] as const) {
      const { code, server } = await doctorJson(['--config', writeConfig(tmp.dir, path, content)]);
      assert.equal(code, 0, path);
      assert.equal(server.tier, 'anonymous', path);
    }
  });

  it('${VAR:-default} with VAR unset is reported as the default, and the token in it is masked', async () => {
    const file = writeConfig(tmp.dir, 'code-default/.mcp.json', {
      mcpServers: {
        club: {
          type: 'http',
          url: club.server.mcpUrl,
          headers: { Authorization: `Bearer \${CLUB_TOKEN:-${token}}` },
        },
      },
    });
    const human = await doctor(['--config', file, '--expect', 'member'], {});
    const json = await doctor(['--config', file, '--expect', 'member', '--json'], {});
    assert.equal(human.code, 0);
    assert.match(human.out, /filled in from its default in the configuration: CLUB_TOKEN is not set/);
    assert.doesNotMatch(human.out, /filled in from the environment/);
    const masked = `wdn_…${token.slice(-4)}`;
    assert.ok(human.out.includes(masked), human.out);
    for (const out of [human.out, json.out]) {
      assert.ok(!out.includes(token), 'the token is never printed in full');
      assert.doesNotMatch(out, /wdn_[A-Za-z0-9_-]{8,}/);
    }
  });
});
