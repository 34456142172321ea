// The surfaces fixture server, started over real stdio and read by the SDK's real client in both
// protocol eras: every list as its JSON file says, skill digests checked against sha256 of the
// bytes resources/read returns, and an unknown skill refused with -32602.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'surfaces.ts');
const SKILLS = 'io.modelcontextprotocol/skills';

const SKILL_MD =
  '---\nname: git-workflow\ndescription: "Branch, commit and open a pull request"\n---\n# Git\n';
const GUIDE = 'Rebase before you push. Ünïcödé counts in bytes.\n';
const SAMPLE = {
  server: { name: 'surfaces-sample', version: '1.2.3' },
  instructions: 'Read the guide before any tool.',
  pageSize: 2,
  tools: ['search', 'fetch', 'delete'].map((name) => ({
    name,
    description: `${name} things`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  })),
  prompts: [
    {
      name: 'review',
      description: 'Review a diff',
      arguments: [{ name: 'diff', description: 'The diff', required: true }],
    },
    { name: 'summarise', description: 'Summarise a text', arguments: [] },
  ],
  resources: [{ uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain', text: 'remember the milk' }],
  resourceTemplates: [
    { uriTemplate: 'file:///{path}', name: 'file', description: 'Any file', mimeType: 'text/plain' },
  ],
  skills: [{ path: 'git-workflow', files: { 'SKILL.md': SKILL_MD, 'references/GUIDE.md': GUIDE } }],
};

/** Accepts whatever the server sent: these checks compare raw JSON, not the SDK's parse of it. */
const AS_SENT: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) },
};

type Page = Record<string, unknown> & { nextCursor?: string };

async function request(client: Client, method: string, params: Record<string, unknown> = {}): Promise<Page> {
  return (await client.request({ method, params }, AS_SENT)) as Page;
}

/** Every page of a list, with how many pages it took. */
async function listAll(
  client: Client,
  method: string,
  key: string,
): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 100; pages++) {
    const result = await request(client, method, cursor === undefined ? {} : { cursor });
    items.push(...(result[key] as unknown[]));
    cursor = result.nextCursor;
    if (cursor === undefined) return { items, pages };
  }
  throw new Error(`${method} never ended`);
}

const sha256 = (text: string): string => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

let dir = '';
let file = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-surfaces-'));
  file = path.join(dir, 'surfaces.json');
  fs.writeFileSync(file, JSON.stringify(SAMPLE));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

async function connect(modern: boolean, byEnv = false): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=warden-source', '--import', 'tsx', SERVER, ...(byEnv ? [] : [file])],
    env: { ...process.env, ...(byEnv && { WARDEN_SURFACES_FILE: file }) } as Record<string, string>,
    cwd: ROOT,
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'surfaces-test', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport, { timeout: 30_000 });
  return client;
}

for (const [era, modern] of [
  ['2025-11-25', false],
  ['2026-07-28', true],
] as const) {
  describe(`surfaces fixture server over stdio, ${era}`, () => {
    let client: Client;
    before(async () => {
      client = await connect(modern);
    });
    after(async () => client.close());

    it('negotiates the era and serves the identity, instructions and capabilities of its file', () => {
      assert.equal(client.getNegotiatedProtocolVersion(), era);
      assert.deepEqual(client.getServerVersion(), SAMPLE.server);
      assert.equal(client.getInstructions(), SAMPLE.instructions);
      const caps = client.getServerCapabilities();
      assert.ok(caps?.tools && caps.prompts && caps.resources);
      assert.deepEqual((caps as { extensions?: unknown }).extensions, { [SKILLS]: {} });
    });

    it('serves every list as written, page by page, with every skill file as a resource', async () => {
      const tools = await listAll(client, 'tools/list', 'tools');
      assert.deepEqual(tools, { items: SAMPLE.tools, pages: 2 });
      assert.deepEqual((await listAll(client, 'prompts/list', 'prompts')).items, SAMPLE.prompts);
      const templates = await listAll(client, 'resources/templates/list', 'resourceTemplates');
      assert.deepEqual(templates.items, SAMPLE.resourceTemplates);
      assert.deepEqual((await listAll(client, 'resources/list', 'resources')).items, [
        { uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain' },
        { uri: 'skill://git-workflow/SKILL.md', name: 'git-workflow/SKILL.md', mimeType: 'text/markdown' },
        {
          uri: 'skill://git-workflow/references/GUIDE.md',
          name: 'git-workflow/references/GUIDE.md',
          mimeType: 'text/markdown',
        },
      ]);
      const read = await client.readResource({ uri: 'file:///notes.txt' });
      assert.deepEqual(read.contents, [
        { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'remember the milk' },
      ]);
    });

    it('lists skills whose digests and sizes match the bytes resources/read returns', async () => {
      const { items } = await listAll(client, 'skills/list', 'skills');
      assert.equal(items.length, 1);
      const skill = items[0] as {
        uri: string;
        frontmatter: unknown;
        resources: { uri: string; digest: string; size: number }[];
      };
      assert.equal(skill.uri, 'skill://git-workflow/SKILL.md');
      assert.deepEqual(skill.frontmatter, {
        name: 'git-workflow',
        description: 'Branch, commit and open a pull request',
      });
      assert.deepEqual(
        skill.resources.map((r) => r.uri),
        ['skill://git-workflow/SKILL.md', 'skill://git-workflow/references/GUIDE.md'],
      );
      for (const entry of skill.resources) {
        const { contents } = await client.readResource({ uri: entry.uri });
        const text = (contents[0] as { text: string }).text;
        assert.equal(entry.digest, sha256(text), entry.uri);
        assert.equal(entry.size, Buffer.byteLength(text, 'utf8'), entry.uri);
      }
      assert.deepEqual((await request(client, 'skills/get', { uri: skill.uri })).skill, skill);
    });

    it("passes the SDK's own host-side verification of skill files", async () => {
      const skills = new SkillsClient(client);
      assert.equal(skills.supported, true);
      const [entry] = (await skills.list()).skills;
      assert.ok(entry);
      const manifest = await skills.read(entry);
      assert.equal(manifest.verified, true);
      assert.equal(manifest.body, '# Git\n');
      assert.equal((await skills.read(entry, 'references/GUIDE.md')).text, GUIDE);
    });

    it('refuses an unknown skill with -32602', async () => {
      await assert.rejects(
        request(client, 'skills/get', { uri: 'skill://nope/SKILL.md' }),
        (err: unknown) => {
          assert.equal((err as { code?: unknown }).code, -32602);
          return true;
        },
      );
    });
  });
}

describe('surfaces fixture server: started by environment variable', () => {
  it('reads the same file when no argument names it', async () => {
    const client = await connect(false, true);
    try {
      assert.deepEqual(client.getServerVersion(), SAMPLE.server);
    } finally {
      await client.close();
    }
  });
});
