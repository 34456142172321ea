import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { sarifValidator } from './helpers.ts';
import { gate, lineOfKey, workspace } from '../report/fixture.ts';

let done = (): void => undefined;
let dir = '';
before(async () => {
  ({ dir, done } = workspace());
  assert.equal((await gate(['pin', '--manifest', 'v1.json'])).code, 0);
});
after(() => done());

const check = async (format: string, ...more: string[]) => {
  const r = await gate([
    'check',
    '--manifest',
    'v2.json',
    '--calls',
    'calls.jsonl',
    '--format',
    format,
    ...more,
  ]);
  assert.equal(r.code, 1, r.err);
  return r.out;
};
const pinned = (...keys: string[]): number => lineOfKey('mcp-lock.json', ['servers', 'default', ...keys]);

describe('annotations anchored to the lockfile line where each item is pinned', () => {
  it('github: file= and line= on every item, the recording line on every rejected call', async () => {
    // --verbose: the compatible items are annotated too (as notices), to show their anchors.
    const lines = (await check('github', '--verbose')).trimEnd().split('\n');
    const at = (l: string) => /^::(\w+) file=([^,]*),line=(\d+),title=([^:]*)::/.exec(l)?.slice(1);
    assert.deepEqual(
      lines.slice(0, 5).map((l) => at(l)?.slice(0, 3)),
      [
        ['error', 'mcp-lock.json', String(pinned('tools', 'read_file'))],
        ['error', 'mcp-lock.json', String(pinned('tools', 'search'))],
        ['warning', 'mcp-lock.json', String(pinned('skills', 'skill://docs/SKILL.md'))],
        ['notice', 'mcp-lock.json', String(pinned('tools'))],
        ['notice', 'mcp-lock.json', String(pinned('prompts', 'summarize'))],
      ],
    );
    assert.match(
      lines[1] ?? '',
      /%0Abreaking: required property "path" added .*%0Acompatible: tool description changed.*%0Aaccept: warden-gate accept --lock mcp-lock\.json --manifest v2\.json --tool search@sha256:/,
    );
    assert.deepEqual(
      lines.slice(5, 7).map((l) => at(l)?.slice(0, 3)),
      [
        ['error', 'calls.jsonl', '2'],
        ['error', 'calls.jsonl', '3'],
      ],
    );
    assert.deepEqual(lines.slice(7), [
      'maybe renamed: read_file → read_text_file',
      'warden gate: 2 breaking, 1 unknown, 2 compatible, 3 identical in 1 server',
    ]);
  });

  it('sarif: schema-valid, each result with the lockfile and its line', async () => {
    const doc = JSON.parse(await check('sarif'));
    const validate = sarifValidator();
    assert.equal(validate(doc), true, JSON.stringify(validate.errors?.slice(0, 3)));
    const run = doc.runs[0];
    const where = (r: {
      properties: { item: string };
      ruleId: string;
      locations: { physicalLocation: unknown }[];
    }) => [r.properties.item, r.ruleId, r.locations[0]?.physicalLocation];
    const loc = (line: number) => ({
      artifactLocation: { uri: 'mcp-lock.json' },
      region: { startLine: line },
    });
    assert.deepEqual(where(run.results[0]), ['read_file', 'tool-removed', loc(pinned('tools', 'read_file'))]);
    assert.deepEqual(where(run.results[1]), ['search', 'type-narrowed', loc(pinned('tools', 'search'))]);
    const skill = run.results.find((r: { properties: { kind: string } }) => r.properties.kind === 'skill');
    assert.deepEqual(skill.locations[0].physicalLocation, loc(pinned('skills', 'skill://docs/SKILL.md')));
    assert.equal(run.invocations, undefined, 'a lock to point into: nothing to explain');
    assert.equal(run.properties.summaryLine, '2 breaking, 1 unknown, 2 compatible, 3 identical in 1 server');
  });

  it('markdown: verdict, summary, a table, a details block per break with its accept command', async () => {
    const out = await check('markdown');
    const [title, , summary] = out.split('\n');
    assert.equal(title, '### Warden gate: breaking');
    assert.equal(summary, '2 breaking, 1 unknown, 2 compatible, 3 identical in 1 server');
    const rows = out.split('\n').filter((l) => /^\| [❌❓✅] \|/.test(l));
    assert.deepEqual(
      rows.map((r) => r.split(' | ').slice(1, 3).join(' ')),
      [
        'tool <code>read_file</code> breaking',
        'tool <code>search</code> breaking',
        'skill <code>skill://docs/SKILL.md</code> unknown',
        'tool <code>read_text_file</code> compatible',
        'prompt <code>summarize</code> compatible',
      ],
    );
    assert.ok(
      rows[1]?.endsWith(
        `| <code>mcp-lock.json:${pinned('tools', 'search')}</code> <code>/inputSchema/properties/limit/type</code> |`,
      ),
    );
    assert.equal(out.match(/<details>/g)?.length, 3, 'breaking and unknown items only');
    assert.match(
      out,
      /\n```sh\nwarden-gate accept --lock mcp-lock\.json --manifest v2\.json --item skill:skill:\/\/docs\/SKILL\.md@sha256:[0-9a-f]{64}\n```\n/,
    );
    // A text diff holding a backtick and a pipe: fenced, the fence longer than any run inside.
    assert.match(out, /\n {2}```\n {2}Search \[-files-\]\{\+`files` \| fast\+\}\n {2}```\n/);
    assert.match(
      out,
      /^- <code>line 2: search \{"q":"readme","limit":10\}<\/code>: \/ must have required property 'path'$/m,
    );
    assert.match(out, /^- maybe renamed: <code>read_file<\/code> → <code>read_text_file<\/code>$/m);
  });

  it('json: items breaking first with their accept command, replay with the calls themselves, renames', async () => {
    const doc = JSON.parse(await check('json'));
    assert.deepEqual(
      [doc.summary.breaking, doc.summary.unknown, doc.summary.compatible, doc.summary.servers],
      [2, 1, 2, 1],
    );
    const [server] = doc.servers;
    assert.deepEqual(
      server.items.map((i: { kind: string; name: string; accept: string | null }) => [
        i.kind,
        i.name,
        i.accept !== null,
      ]),
      [
        ['tool', 'read_file', true],
        ['tool', 'search', true],
        ['skill', 'skill://docs/SKILL.md', true],
        ['tool', 'read_text_file', false],
        ['prompt', 'summarize', false],
      ],
    );
    assert.deepEqual(server.replay.rejected[0], {
      line: 2,
      tool: 'search',
      arguments: { q: 'readme', limit: 10 },
      error: "/ must have required property 'path'",
    });
    assert.deepEqual(server.renames, [{ kind: 'tool', from: 'read_file', to: 'read_text_file' }]);
  });

  it('junit: the summary line is the suite output', async () => {
    const doc = new XMLParser().parse(await check('junit'));
    assert.equal(
      doc.testsuites.testsuite['system-out'],
      'maybe renamed: read_file → read_text_file\n2 breaking, 1 unknown, 2 compatible, 3 identical in 1 server',
    );
  });
});

describe('diff: anchored to NEW when it is a lock, else to OLD', () => {
  it('OLD a lock, NEW a snapshot: lines in OLD, and the accept command to bless NEW into it', async () => {
    const r = await gate(['diff', 'mcp-lock.json', 'v2.json', '--format', 'github']);
    assert.match(r.out, new RegExp(`^::error file=mcp-lock.json,line=${pinned('tools', 'search')},`, 'm'));
    assert.match(
      r.out,
      /accept: warden-gate accept --lock mcp-lock\.json --manifest v2\.json --tool search@/,
    );
  });

  it('both locks: lines in NEW (a removed item at its surface), nothing to accept', async () => {
    assert.equal((await gate(['pin', '--manifest', 'v2.json', '--lock', 'new-lock.json'])).code, 0);
    const r = await gate(['diff', 'mcp-lock.json', 'new-lock.json', '--format', 'github']);
    const tools = lineOfKey(path.join(dir, 'new-lock.json'), ['servers', 'default', 'tools']);
    const search = lineOfKey(path.join(dir, 'new-lock.json'), ['servers', 'default', 'tools', 'search']);
    assert.match(
      r.out,
      new RegExp(`^::error file=new-lock.json,line=${tools},title=warden gate%3A read_file breaking`, 'm'),
    );
    assert.match(
      r.out,
      new RegExp(`^::error file=new-lock.json,line=${search},title=warden gate%3A search breaking`, 'm'),
    );
    assert.doesNotMatch(r.out, /accept:/);
  });
});
