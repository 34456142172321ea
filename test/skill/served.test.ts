// The club's skill, served the standard way (MCP Skills extension, SEP-2640) and scoped like the
// tools: each reader's skill and instructions name only what that reader can use now.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { changeMandate } from '../../src/admin/mandate.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { checkSkillSource, SKILL_URI } from '../../src/skill/index.ts';
import { renderSkillSource } from '../../src/skill/source.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { rawPost, spyOnHandler, startClub, type Era, type TestClub } from '../helpers/club.ts';

type Client = Awaited<ReturnType<TestClub['connect']>>;

const ALL_TOOLS = buildRegistry()
  .all()
  .map((t) => t.spec.name);
const SCOPE_IDS = ['profile:write', 'evidence:write', 'mandate:read', 'mandate:write'];

/** Everything a reader can read of the skill: instructions, the entry, and every file's text. */
async function readable(client: Client) {
  const skills = new SkillsClient(client);
  assert.equal(skills.supported, true, 'the extension is declared');
  const { skills: entries } = await skills.list();
  assert.equal(entries.length, 1);
  const entry = entries[0]!;
  const files: Record<string, string> = {};
  for (const r of entry.resources as { uri: string; digest: string; size: number }[]) {
    // SkillsClient.read checks the file is listed, its size, its digest and SKILL.md's frontmatter.
    const file = await skills.read(entry, r.uri);
    assert.equal(file.verified, true);
    const bytes = Buffer.from(file.bytes);
    assert.equal(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, r.digest);
    files[r.uri] = bytes.toString('utf8');
  }
  const listed = (await client.listTools()).tools;
  return {
    instructions: client.getInstructions() ?? '',
    entry,
    files,
    tools: listed.map((t) => t.name),
    descriptors: JSON.stringify(listed),
  };
}

const mentions = (text: string, word: string) => new RegExp(`(?<![\\w:])${word}(?![\\w:])`).test(text);

describe('the club skill', () => {
  let club: TestClub;
  let tokens: Record<'member' | 'candidate' | 'narrowed', string>;
  before(async () => {
    club = await startClub();
    tokens = {
      member: (await club.addMember('alice')).token,
      candidate: (await club.addCandidate('bob')).token,
      narrowed: (await club.addMember('carol')).token,
    };
    await changeMandate({ store: club.store, registry: club.registry }, 'carol', {
      scopes: 'profile:write,evidence:write,inbox,mandate:read,vouch',
    });
  });
  after(() => club.close());

  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`each tier reads a skill that names only its own tools and scopes (${era})`, async () => {
      const seen: Record<string, Awaited<ReturnType<typeof readable>>> = {};
      for (const [who, token] of [
        ['anonymous', undefined],
        ['candidate', tokens.candidate],
        ['member', tokens.member],
        ['narrowed', tokens.narrowed],
      ] as const) {
        const r = await readable(await club.connect(token, era));
        seen[who] = r;
        // What describes the server to this reader: instructions, skill, tool descriptors.
        const text = [r.instructions, JSON.stringify(r.entry), ...Object.values(r.files), r.descriptors].join(
          '\n',
        );
        for (const tool of ALL_TOOLS.filter((t) => !r.tools.includes(t)))
          assert.ok(!mentions(text, tool), `${who} can read the name of ${tool}, which it cannot see`);
        for (const tool of r.tools.filter((t) => t !== 'get_consultation' && t !== 'list_evidence'))
          assert.ok(mentions(r.files[SKILL_URI]!, tool), `${who}'s skill says nothing of ${tool}`);
        const held =
          who === 'anonymous' ? [] : who === 'candidate' ? SCOPE_IDS.slice(0, 3) : SCOPE_IDS.slice(0, 3);
        for (const scope of SCOPE_IDS.filter((s) => !held.includes(s)))
          assert.ok(!text.includes(scope), `${who} reads the scope ${scope}`);
      }
      assert.equal(seen['anonymous']!.tools.length, 3);
      assert.equal(seen['candidate']!.tools.length, 10);
      assert.equal(seen['member']!.tools.length, 14);
      // Skills differ as the tools do, and so do their digests.
      const digests = Object.fromEntries(
        Object.entries(seen).map(([who, r]) => [who, JSON.stringify(r.entry.resources)]),
      );
      assert.equal(new Set(Object.values(digests)).size, 4, 'four tool sets, four manifests');
      assert.ok(!mentions(seen['candidate']!.files[SKILL_URI]!, 'ask_agent'));
      assert.ok(!mentions(seen['candidate']!.files[SKILL_URI]!, 'review_candidate'));
      assert.ok(!mentions(seen['narrowed']!.files[SKILL_URI]!, 'ask_agent'));
      assert.ok(mentions(seen['narrowed']!.files[SKILL_URI]!, 'review_candidate'));
      assert.ok(!mentions(seen['anonymous']!.instructions, 'list_decisions'));
      assert.ok(mentions(seen['member']!.instructions, 'list_decisions'));
    });
  }

  for (const [shape, handle, scopes, tools] of [
    ['a member token without profile:write', 'erin', 'inbox', 5],
    ['a member token whose every scope the mandate withholds', 'carol', 'consult', 3],
  ] as const) {
    it(`${shape} is told it acts for a principal, in the skill and the instructions`, async () => {
      const token =
        handle === 'carol'
          ? (await issueAgentToken(club.store, club.registry, 'carol', { scopes, label: 'consult only' }))
              .token
          : (await club.addMember(handle, scopes)).token;
      for (const era of ['legacy', 'modern'] as Era[]) {
        const r = await readable(await club.connect(token, era));
        assert.equal(r.tools.length, tools);
        const skill = r.files[SKILL_URI]!;
        assert.match(skill, /You act for one person, your \*\*principal\*\*/);
        assert.doesNotMatch(skill, /without a principal/);
        assert.doesNotMatch(skill, /An HTTP 401 asks for a sign-in/);
        assert.match(r.instructions, /your principal's mandate and your tier allow/);
        assert.doesNotMatch(r.instructions, /the public ones/);
      }
      // The anonymous reader is still told it has no principal.
      const anonymous = await readable(await club.connect(undefined, 'modern'));
      assert.match(anonymous.files[SKILL_URI]!, /without a principal/);
    });
  }

  it('a mandate that drops consult drops that part of the skill at the next request', async () => {
    const { token } = await club.addMember('dora');
    const client = await club.connect(token, 'modern');
    const skills = new SkillsClient(client);
    const first = (await skills.get(SKILL_URI)).skill;
    const text = async (entry: typeof first) => (await skills.read(entry)).text ?? '';
    assert.ok(mentions(await text(first), 'ask_agent'));
    await changeMandate({ store: club.store, registry: club.registry }, 'dora', {
      scopes: 'profile:write,evidence:write,inbox,mandate:read,vouch',
    });
    const second = (await skills.get(SKILL_URI)).skill;
    assert.notDeepEqual(second.resources, first.resources, 'the manifest changed with the mandate');
    assert.ok(!mentions(await text(second), 'ask_agent'));
    assert.ok(!mentions(await text(second), 'get_consultation'));
    // The old entry no longer matches what is served: a host bound to it sees the change.
    await assert.rejects(skills.read(first), /bytes|digest/);
  });

  it('a 2025-11-25 client reads the same bytes as a resource that the manifest describes', async () => {
    const modern = new SkillsClient(await club.connect(tokens.member, 'modern'));
    const entry = (await modern.list()).skills[0]!;
    const legacy = await club.connect(tokens.member, 'legacy');
    const listed = (await legacy.listResources()).resources.map((r) => r.uri);
    for (const r of entry.resources as { uri: string; digest: string; size: number }[]) {
      assert.ok(listed.includes(r.uri), `${r.uri} is listed`);
      const read = await legacy.readResource({ uri: r.uri });
      const bytes = Buffer.from((read.contents[0] as { text: string }).text, 'utf8');
      assert.equal(bytes.byteLength, r.size);
      assert.equal(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, r.digest);
    }
  });

  it('a file, a skill or a cursor this caller is not served is refused like one that never existed', async () => {
    const candidate = await club.connect(tokens.candidate, 'legacy');
    const spy = spyOnHandler(club.registry, 'club_info');
    const missing = async (uri: string) => {
      try {
        await candidate.readResource({ uri });
      } catch (err) {
        const e = err as { code: number; message: string };
        return { code: e.code, message: e.message.replace(uri, '<uri>') };
      }
      assert.fail(`${uri} was read`);
    };
    assert.deepEqual(
      await missing('skill://warden-club/nothing.md'),
      await missing('skill://elsewhere/SKILL.md'),
    );
    const get = await rawPost(
      club.server.mcpUrl,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'skills/get',
        params: { uri: 'skill://x/\u001b[2JSKILL.md' },
      }),
      { authorization: `Bearer ${tokens.candidate}` },
    );
    const body = await get.text();
    assert.match(body, /-32602/);
    assert.ok(!body.includes('\u001b'), 'the caller’s text is not echoed raw');
    const cursor = await rawPost(
      club.server.mcpUrl,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'skills/list', params: { cursor: 'abc' } }),
      { authorization: `Bearer ${tokens.candidate}` },
    );
    assert.match(await cursor.text(), /-32602/);
    assert.equal(spy.calls, 0);
  });
});

describe('the skill source format', () => {
  const sees = (tools: string[]) => (t: string) => tools.includes(t);
  const cases: [string, string, string[], string][] = [
    [
      'kept when every tool is seen',
      'a\n<!-- if: x_a y_b -->\nb\n<!-- end -->\nc',
      ['x_a', 'y_b'],
      'a\nb\nc\n',
    ],
    ['dropped when one is not', 'a\n<!-- if: x_a y_b -->\nb\n<!-- end -->\nc', ['x_a'], 'a\nc\n'],
    ['`if not` when none is seen', '<!-- if not: x_a -->\nb\n<!-- end -->', [], 'b\n'],
    ['nested blocks', '<!-- if: x_a -->\n<!-- if: y_b -->\nb\n<!-- end -->\nc\n<!-- end -->', ['x_a'], 'c\n'],
    [
      'markers and notes removed',
      'A rule. <!-- rule r-1: not_found -->\n<!-- a note -->\nB.',
      [],
      'A rule.\n\nB.\n',
    ],
  ];
  for (const [name, source, tools, rendered] of cases)
    it(name, () => assert.equal(renderSkillSource('t.md', source, sees(tools)), rendered));

  for (const [name, source, problem] of [
    ['an `if` without `end`', '<!-- if: x_a -->\nb', /t\.md:1: `if` without its `end`/],
    ['an `end` without `if`', 'b\n<!-- end -->', /t\.md:2: `end` without an `if`/],
    ['a malformed rule', 'A. <!-- rule Bad Id -->', /t\.md:1: malformed rule marker/],
    ['an inline `if`', 'a <!-- if: x_a --> b', /stand on a line of their own/],
    ['a condition on no tool name', '<!-- if: X -->\n<!-- end -->', /t\.md:1: "X" is not a tool name/],
  ] as const)
    it(`refuses ${name}`, () => assert.throws(() => renderSkillSource('t.md', source, () => true), problem));

  it('refuses a rule bound to a code the refusal catalogue does not have', () => {
    assert.throws(
      () => checkSkillSource('t.md', 'One rule. <!-- rule one: no_such_code -->'),
      /t\.md:1: rule one names "no_such_code", which is no refusal code/,
    );
    assert.doesNotThrow(() => checkSkillSource('t.md', 'One rule. <!-- rule one: self_target -->'));
  });
});
