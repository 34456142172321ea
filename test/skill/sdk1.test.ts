// A client of the 2025 revisions that knows nothing of the Skills extension (the SDK 1.x most
// hosts ship) still finds the skill: its files are ordinary resources, listed and read with the
// bytes the manifest's digests describe.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Client as ClientV1 } from 'mcp-sdk-v1/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from 'mcp-sdk-v1/client/streamableHttp.js';
import { startClub, type TestClub } from '../helpers/club.ts';

describe('the skill, read by SDK 1.x', () => {
  let club: TestClub;
  let token: string;
  before(async () => {
    club = await startClub();
    token = (await club.addCandidate('bob')).token;
  });
  after(() => club.close());

  it('lists the skill files as resources and reads the bytes the manifest describes', async () => {
    const v1 = new ClientV1({ name: 'sdk1', version: '1' });
    await v1.connect(
      new HttpV1(new URL(club.server.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const manifest = (await new SkillsClient(await club.connect(token, 'modern')).list()).skills[0]!;
    try {
      assert.ok(v1.getServerCapabilities()?.resources, 'resources are declared');
      const listed = (await v1.listResources()).resources.map((r) => r.uri).sort();
      const files = (manifest.resources as { uri: string; digest: string }[]).map((r) => r.uri).sort();
      assert.deepEqual(listed, files);
      for (const r of manifest.resources as { uri: string; digest: string }[]) {
        const read = await v1.readResource({ uri: r.uri });
        const text = (read.contents[0] as { text: string }).text;
        assert.equal(`sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`, r.digest);
      }
      assert.doesNotMatch(v1.getInstructions() ?? '', /list_candidates|review_candidate|ask_agent/);
    } finally {
      await v1.close();
    }
  });
});
