// The skill over stdio: the same per-reader rendering as over HTTP, re-read on every request,
// so a mandate narrowed while a desktop client stays connected narrows the skill at once.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { changeMandate } from '../../src/admin/mandate.ts';
import { startClub, type TestClub } from '../helpers/club.ts';

const BIN = join(import.meta.dirname, '../../bin/warden.js');

describe('the skill over stdio', () => {
  let club: TestClub;
  let token: string;
  before(async () => {
    club = await startClub();
    token = (await club.addMember('alice')).token;
  });
  after(() => club.close());

  for (const modern of [false, true]) {
    it(`is listed, verified and narrowed mid-connection (${modern ? '2026-07-28' : '2025-11-25'})`, async () => {
      const client = new Client(
        { name: 'stdio-skill-test', version: '1' },
        modern ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      const env = {
        PATH: process.env['PATH'] ?? '',
        WARDEN_DB: join(club.dir, 'club.db'),
        WARDEN_TOKEN: token,
      };
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [BIN, 'stdio'], env, stderr: 'pipe' }),
      );
      try {
        const skills = new SkillsClient(client);
        const [entry] = (await skills.list()).skills;
        const before = await skills.read(entry!);
        assert.equal(before.verified, true);
        assert.match(before.text ?? '', /ask_agent/);
        await changeMandate({ store: club.store, registry: club.registry }, 'alice', {
          scopes: 'profile:write,evidence:write,inbox,mandate:read,vouch',
        });
        const [narrowed] = (await skills.list()).skills;
        const after = await skills.read(narrowed!);
        assert.doesNotMatch(after.text ?? '', /ask_agent/);
        assert.notDeepEqual(narrowed!.resources, entry!.resources);
      } finally {
        await changeMandate({ store: club.store, registry: club.registry }, 'alice', {
          scopes: 'profile:write,evidence:write,inbox,mandate:read,consult,vouch',
        });
        await client.close();
      }
    });
  }
});
