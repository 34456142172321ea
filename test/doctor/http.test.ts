import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { changeMandate } from '../../src/admin/mandate.ts';
import { setStatus } from '../../src/admin/principals.ts';
import { issueAgentToken, revokeToken } from '../../src/admin/tokens.ts';
import { startClub, type TestClub } from '../helpers/club.ts';
import { closedPort, doctorJson, tempDir, writeConfig } from './support.ts';

describe('doctor over HTTP, from client configurations, against a real Warden', () => {
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

  it('a Claude Code config without the header: anonymous, exit 1 with --expect member, names the header', async () => {
    const file = writeConfig(tmp.dir, 'no-header/.mcp.json', {
      mcpServers: { club: { type: 'http', url: club.server.mcpUrl } },
    });
    const { code, server } = await doctorJson(['--config', file, '--expect', 'member']);
    assert.equal(code, 1);
    assert.equal(server.status, 'below_expected');
    assert.equal(server.tier, 'anonymous');
    assert.equal(server.tools, 3);
    assert.equal(server.total, 15);
    assert.equal(server.ok, false);
    assert.ok(
      server.reasons.includes('this configuration sends no Authorization header'),
      server.reasons.join('\n'),
    );
    assert.equal(server.would_add.length, 11);
    assert.ok(server.would_add.includes('ask_agent'));
    assert.match(server.fix ?? '', /"Authorization": "Bearer wdn_…"/);
  });

  it('the same config without --expect is reachable and anonymous, so exit 0, still saying why', async () => {
    const file = writeConfig(tmp.dir, 'no-header-2/.mcp.json', {
      mcpServers: { club: { type: 'http', url: club.server.mcpUrl } },
    });
    const { code, server } = await doctorJson(['--config', file]);
    assert.equal(code, 0);
    assert.equal(server.tier, 'anonymous');
    assert.ok(server.reasons.includes('this configuration sends no Authorization header'));
  });

  it('a revoked token: the 401 path, exit 1, the reason says revoked and when', async () => {
    const { token, tokenId } = await club.addMember('revoked-rita');
    await revokeToken(club.store, tokenId);
    const file = writeConfig(tmp.dir, 'revoked/.mcp.json', {
      mcpServers: {
        club: { type: 'http', url: club.server.mcpUrl, headers: { Authorization: `Bearer ${token}` } },
      },
    });
    const { code, server } = await doctorJson(['--config', file, '--expect', 'member']);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.equal(server.server, 'warden');
    assert.equal(server.tier, null);
    assert.equal(server.tools, null);
    assert.match(server.reasons[0] ?? '', /^the token was revoked on \d{4}-\d\d-\d\dT/);
    assert.ok(server.checks.some((c) => c.id === 'token' && c.ok === false && /HTTP 401/.test(c.message)));
    assert.match(server.fix ?? '', /issue a new token/);
  });

  it('a valid member token with a narrowed mandate: member, fewer tools, the reason names the mandate', async () => {
    const { token } = await club.addMember('narrow-nina');
    await changeMandate({ store: club.store, registry: club.registry }, 'narrow-nina', {
      scopes: 'profile:write,evidence:write,inbox,mandate:read,vouch',
    });
    const file = writeConfig(tmp.dir, 'narrow/.mcp.json', {
      mcpServers: { club: { url: club.server.mcpUrl, headers: { Authorization: `Bearer ${token}` } } },
    });
    const { code, server } = await doctorJson(['--config', file, '--expect', 'member']);
    assert.equal(code, 0, 'the tier is met; the mandate narrowing is the principal’s choice');
    assert.equal(server.tier, 'member');
    assert.equal(server.tools, 12);
    assert.ok(!server.tool_names.includes('ask_agent'));
    const reason = server.reasons.find((r) => r.startsWith('`consult`'));
    assert.equal(
      reason,
      "`consult` is missing because your principal's mandate does not grant it (hides ask_agent, get_consultation)",
    );
    assert.match(server.fix ?? '', /warden admin mandate set narrow-nina --scopes .*consult/);
  });

  it('a healthy member from a Cursor config: exit 0, 14 of 15 tools', async () => {
    const { token } = await club.addMember('healthy-hana');
    const file = writeConfig(tmp.dir, 'healthy/.cursor/mcp.json', {
      mcpServers: { club: { url: club.server.mcpUrl, headers: { Authorization: `Bearer ${token}` } } },
    });
    const { code, server } = await doctorJson(['--config', file, '--expect', 'member']);
    assert.equal(code, 0);
    assert.equal(server.status, 'healthy');
    assert.equal(server.ok, true);
    assert.equal(server.tier, 'member');
    assert.equal(server.tools, 14);
    assert.equal(server.total, 15);
    assert.equal(server.fix, null);
    assert.match(server.protocol ?? '', /^\d{4}-\d\d-\d\d$/);
    assert.equal(server.protected_resource_metadata, true);
    assert.ok(server.checks.some((c) => c.id === 'cross-check' && c.ok === true));
  });

  it('a candidate expected to be a member: exit 1, and the fix names both steps, which together work', async () => {
    const { token } = await club.addCandidate('cand-cora');
    const { code, server } = await doctorJson([club.server.mcpUrl, '--token', token, '--expect', 'member']);
    assert.equal(code, 1);
    assert.equal(server.tier, 'candidate');
    assert.equal(server.tools, 10);
    const fix = server.fix ?? '';
    assert.match(
      fix,
      /^1\) only the club can admit cand-cora as a member: warden admin principal admit cand-cora; 2\) then issue a token with the member scopes/,
    );
    const issue = /warden admin token issue cand-cora --scopes (\S+),/.exec(fix);
    assert.ok(issue, fix);

    // Step 1 alone is not enough: the old token still sees the candidate's 10 tools,
    // and the doctor still points at the token.
    await setStatus(club.store, 'cand-cora', 'member');
    const after1 = await doctorJson([club.server.mcpUrl, '--token', token, '--expect', 'member']);
    assert.equal(after1.server.tier, 'member');
    assert.equal(after1.server.tools, 10);
    assert.match(after1.server.fix ?? '', /issue a token that carries consult, vouch/);

    // Step 2, exactly as the fix says: the new token sees the member's 14.
    const issued = await issueAgentToken(club.store, club.registry, 'cand-cora', { scopes: issue[1]! });
    const after2 = await doctorJson([club.server.mcpUrl, '--token', issued.token, '--expect', 'member']);
    assert.equal(after2.code, 0);
    assert.equal(after2.server.tools, 14);
  });

  it('an expired token: rejected, and the reason says when it expired', async () => {
    await club.addMember('expired-eve');
    const issued = await issueAgentToken(club.store, club.registry, 'expired-eve', {
      scopes: 'inbox',
      expires: '60m',
      now: new Date(Date.now() - 2 * 3600_000),
    });
    const { code, server } = await doctorJson([club.server.mcpUrl, '--token', issued.token]);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.equal(server.reasons[0], `the token expired on ${issued.record.expiresAt}`);
  });

  it("a suspended principal's token: rejected, and a new token will not help", async () => {
    const { token } = await club.addMember('suspended-sam');
    await setStatus(club.store, 'suspended-sam', 'suspended');
    const { code, server } = await doctorJson([club.server.mcpUrl, '--token', token]);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.match(server.reasons[0] ?? '', /suspended/);
    assert.match(server.fix ?? '', /a new token will not help/);
  });

  it('a header that is not Bearer is rejected as malformed, never read as anonymous', async () => {
    const { code, server } = await doctorJson([club.server.mcpUrl, '--header', 'Authorization: Basic abc']);
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.match(server.reasons[0] ?? '', /^the Authorization header is malformed/);
  });

  it('an unreachable URL: exit 2, in seconds', async () => {
    const port = await closedPort();
    const started = Date.now();
    const { code, server } = await doctorJson([`http://127.0.0.1:${port}/mcp`, '--expect', 'member']);
    assert.equal(code, 2);
    assert.equal(server.status, 'unreachable');
    assert.equal(server.tier, null);
    assert.ok(Date.now() - started < 5000);
    assert.match(server.reasons[0] ?? '', /ECONNREFUSED/);
  });

  it('a URL that answers HTTP but not MCP: exit 2', async () => {
    const { code, server } = await doctorJson([`${club.server.url}/nothing-here`]);
    assert.equal(code, 2);
    assert.equal(server.status, 'not_mcp');
    assert.match(server.reasons[0] ?? '', /did not speak MCP: HTTP 404/);
  });
});
