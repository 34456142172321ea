// The doctor shows the skill a caller is served (MCP Skills extension), as a host reads it: the
// SDK's SkillsClient lists it and verifies SKILL.md against the digest skills/list gives.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/server';
import { skillEntry, SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { changeMandate } from '../../src/admin/mandate.ts';
import { SKILL_URI } from '../../src/skill/index.ts';
import { rawPost, startClub, type TestClub } from '../helpers/club.ts';
import { BIN, doctor, doctorJson, serveMcp, startOtherServer, tempDir, writeConfig } from './support.ts';

/** The SKILL.md digest skills/list gives this caller, read with a bare JSON-RPC request (no SDK). */
async function listedDigest(url: string, token?: string): Promise<string> {
  const res = await rawPost(
    url,
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} }),
    token ? { authorization: `Bearer ${token}` } : {},
  );
  const body = await res.text();
  // A JSON body, or one server-sent event carrying it.
  const json = body.trimStart().startsWith('{')
    ? body
    : (body
        .split('\n')
        .find((l) => l.startsWith('data:'))
        ?.slice(5) ?? '');
  const { result } = JSON.parse(json) as {
    result: { skills: { uri: string; resources: { uri: string; digest: string }[] }[] };
  };
  const skill = result.skills.find((s) => s.uri === SKILL_URI);
  const digest = skill?.resources.find((r) => r.uri === SKILL_URI)?.digest;
  assert.ok(digest, `skills/list gives no digest for ${SKILL_URI}: ${body}`);
  return digest;
}

describe('doctor shows the skill each tier is served, with the digest of its SKILL.md', () => {
  let club: TestClub;
  let tokens: { member: string; candidate: string; narrowed: string };
  let tmp: ReturnType<typeof tempDir>;
  before(async () => {
    club = await startClub();
    tmp = tempDir();
    tokens = {
      member: (await club.addMember('skill-mia')).token,
      candidate: (await club.addCandidate('skill-cal')).token,
      narrowed: (await club.addMember('skill-ned')).token,
    };
    await changeMandate({ store: club.store, registry: club.registry }, 'skill-ned', {
      scopes: 'profile:write,evidence:write,inbox,mandate:read,vouch',
    });
  });
  after(async () => {
    await club.close();
    tmp.remove();
  });

  it('member, candidate and anonymous: the digest shown is the one skills/list gives that tier, and each differs', async () => {
    const seen: Record<string, string> = {};
    for (const [tier, token] of [
      ['member', tokens.member],
      ['candidate', tokens.candidate],
      ['anonymous', undefined],
    ] as const) {
      const { code, server } = await doctorJson([club.server.mcpUrl, ...(token ? ['--token', token] : [])]);
      assert.equal(code, 0, tier);
      assert.equal(server.tier, tier);
      const listed = await listedDigest(club.server.mcpUrl, token);
      assert.deepEqual(
        server.skills,
        [{ name: 'warden-club', uri: SKILL_URI, digest: listed, files: 2, verified: true, problem: null }],
        tier,
      );
      seen[tier] = listed;
    }
    assert.equal(new Set(Object.values(seen)).size, 3, 'each tier is served its own skill');

    const run = await doctor([club.server.mcpUrl, '--token', tokens.candidate]);
    const short = `${seen.candidate!.slice(0, 'sha256:'.length + 8)}…`;
    assert.ok(
      run.out.includes(`  ✓ skill: warden-club (SKILL.md ${short}, 2 files)\n`),
      `the skill line, with the candidate's digest:\n${run.out}`,
    );
  });

  it('a narrowed mandate is shown its own skill, the one skills/list gives it now', async () => {
    const { server } = await doctorJson([club.server.mcpUrl, '--token', tokens.narrowed]);
    const narrowed = await listedDigest(club.server.mcpUrl, tokens.narrowed);
    assert.equal(server.skills?.[0]?.digest, narrowed);
    assert.notEqual(narrowed, await listedDigest(club.server.mcpUrl, tokens.member));
  });

  it('over stdio, the skill the same member is served, verified', async () => {
    const file = writeConfig(tmp.dir, 'stdio/claude_desktop_config.json', {
      mcpServers: {
        club: {
          command: process.execPath,
          args: [BIN, 'stdio'],
          env: { WARDEN_DB: join(club.dir, 'club.db'), WARDEN_TOKEN: tokens.member },
        },
      },
    });
    const { code, server } = await doctorJson(['--config', file, '--timeout', '60']);
    assert.equal(code, 0);
    assert.equal(server.transport, 'stdio');
    assert.equal(server.skills?.length, 1);
    assert.equal(server.skills?.[0]?.verified, true);
    assert.equal(server.skills?.[0]?.digest, await listedDigest(club.server.mcpUrl, tokens.member));
  });
});

/** A server that lists a skill whose SKILL.md it then serves with other bytes than the listing's digest. */
async function startLyingSkillServer(): Promise<{ url: string; close(): Promise<void> }> {
  const honest = '---\nname: forecasting\ndescription: How to read a forecast.\n---\n\nRead it carefully.\n';
  const entry = await skillEntry('forecasting', { 'SKILL.md': honest });
  const skills = new SkillsExtension({
    source: {
      list: async () => ({ skills: [entry] }),
      get: async (uri) => (uri === entry.uri ? entry : undefined),
      // Same length, other bytes: only the digest can tell.
      read: async (uri) =>
        uri === entry.uri ? { text: honest.replace('carefully', 'CAREFULLY') } : undefined,
    },
    onWarning: () => {},
  });
  return serveMcp(() => {
    const server = new McpServer({ name: 'weather-skills', version: '1.0.0' });
    server.registerTool('forecast', { description: 'Tomorrow’s weather.' }, async () => ({
      content: [{ type: 'text', text: 'sunny' }],
    }));
    skills.attach(server);
    return server;
  });
}

describe('doctor on skills that are not Warden’s', () => {
  it('a SKILL.md whose bytes differ from its listed digest: ✗, a mismatch (exit 1), and why', async () => {
    const lying = await startLyingSkillServer();
    try {
      const { code, server } = await doctorJson([lying.url]);
      assert.equal(code, 1);
      assert.equal(server.status, 'mismatch');
      const [skill] = server.skills ?? [];
      assert.equal(skill?.name, 'forecasting');
      assert.equal(skill?.verified, false);
      assert.match(skill?.problem ?? '', /has digest sha256:[0-9a-f]{64}; the skill entry lists sha256:/);
      const run = await doctor([lying.url]);
      assert.match(
        run.out,
        /✗ skill: forecasting \(SKILL\.md sha256:[0-9a-f]{8}…, 1 file\): does not verify/,
      );
      assert.match(run.out, /fix: the server serves skill files other than the ones skills\/list describes/);
    } finally {
      await lying.close();
    }
  });

  it('a server without the Skills extension: no skill line, and `skills` is null', async () => {
    const other = await startOtherServer();
    try {
      const { server } = await doctorJson([other.url]);
      assert.equal(server.skills, null);
      const run = await doctor([other.url]);
      assert.doesNotMatch(run.out, /skill/);
    } finally {
      await other.close();
    }
  });
});
