// warden doctor explains OAuth: a client entry without a header will sign in (and to what
// scopes), and an OAuth connection's diagnosis names its client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startConsoleClub, type ConsoleClub } from '../helpers/console.ts';
import { codeFor, exchange, pkce, register, CALLBACK } from '../helpers/oauth.ts';
import { doctorJson, tempDir, writeConfig } from '../doctor/support.ts';

void describe('warden doctor and OAuth', () => {
  let club: ConsoleClub;
  let tmp: ReturnType<typeof tempDir>;
  before(async () => {
    club = await startConsoleClub({}, { oauth: {} });
    await club.add('alice', 'member', { name: 'Alice' });
    tmp = tempDir();
  });
  after(async () => {
    await club?.close();
    tmp?.remove();
  });

  void it('a client entry with no header: anonymous now, and it will sign in through OAuth to the scopes offered', async () => {
    const file = writeConfig(tmp.dir, 'oauth/.mcp.json', {
      mcpServers: { club: { type: 'http', url: club.server.mcpUrl } },
    });
    const { code, server } = await doctorJson(['--config', file]);
    assert.equal(code, 0);
    assert.equal(server.tier, 'anonymous');
    const reason = server.reasons.join('\n');
    assert.match(reason, /will sign in through OAuth/);
    assert.match(reason, new RegExp(`authorization server ${club.base.replace(/[/.]/g, '\\$&')}`));
    assert.match(reason, /profile:write, evidence:write, inbox, mandate:read, consult, vouch/);
    assert.doesNotMatch(reason, /mandate:write/);
    assert.deepEqual((server as unknown as { oauth: unknown }).oauth, {
      authorization_servers: [club.base],
      scopes: ['profile:write', 'evidence:write', 'inbox', 'mandate:read', 'consult', 'vouch'],
    });
  });

  void it("an OAuth connection's access token: the diagnosis names its client", async () => {
    const r = await register(club.base, CALLBACK, 'Doctor Agent');
    const clientId = String(r.body['client_id']);
    const p = pkce();
    const tokens = await exchange(club, clientId, await codeFor(club, clientId, p), p.verifier);
    assert.equal(tokens.status, 200);
    const { code, server } = await doctorJson([
      club.server.mcpUrl,
      '--token',
      tokens.body['access_token']!,
      '--expect',
      'member',
    ]);
    assert.equal(server.tier, 'member', server.reasons.join('\n'));
    assert.match(server.reasons.join('\n'), new RegExp(`OAuth connection of client ${clientId}`));
    assert.match(server.reasons.join('\n'), /Doctor Agent/);
    assert.equal(code, 0);
  });
});
