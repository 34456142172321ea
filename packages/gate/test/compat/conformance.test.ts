import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { bufferIo } from '../../src/host/io.ts';
import { main } from '../../src/cli/main.ts';
import { compareManifests, conformanceFindings } from '../../src/compat/index.ts';
import { bundled } from '../fixtures/compat/servers/bundled.ts';
import { startHttpTools } from '../fixtures/compat/servers/http-tools.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'stdio-tools.ts');

// What two published releases of a popular server did: an inputSchema without "type": "object".
const loose = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { properties: { path: { type: 'string' } }, required: ['path'] },
};
const fine = { name: 'ping', description: 'Ping', inputSchema: { type: 'object', properties: {} } };
const tighter = {
  ...loose,
  inputSchema: { properties: { path: { type: 'string', maxLength: 10 } }, required: ['path'] },
};

let dir = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, doc: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

async function gate(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIo();
  const code = await main([...argv], io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

const stdio = (file: string): string[] => ['--', process.execPath, bundled(SERVER), file];

describe('conformance findings', () => {
  it('names each problem at its own pointer, and a valid tool has none', () => {
    assert.deepEqual(conformanceFindings(fine), []);
    assert.deepEqual(
      conformanceFindings(loose).map((f) => [f.rule, f.pointer]),
      [['tool-not-conformant', '/inputSchema']],
    );
    const odd = conformanceFindings({
      name: 'x',
      inputSchema: { type: 'array' },
      outputSchema: 'no',
      title: 3 as unknown as string,
      annotations: { readOnlyHint: 'yes' },
    });
    assert.deepEqual(
      odd.map((f) => f.pointer),
      ['/inputSchema/type', '/outputSchema', '/title', '/annotations/readOnlyHint'],
    );
  });

  it('a non-conformant tool is still compared; strict conformance fails closed even when unchanged', () => {
    const changed = compareManifests([loose], [tighter]);
    assert.equal(changed.tools[0]?.verdict, 'breaking');
    assert.deepEqual(changed.tools[0]?.findings.map((f) => f.rule).sort(), [
      'max-length-decreased',
      'tool-not-conformant',
    ]);
    assert.equal(compareManifests([loose], [loose]).tools[0]?.verdict, 'identical');
    const strict = compareManifests([loose], [loose], { strictConformance: true });
    assert.equal(strict.verdict, 'unknown');
    assert.equal(strict.tools[0]?.findings[0]?.rule, 'tool-not-conformant');
  });
});

describe('pinning a server that is not valid MCP (real stdio and real HTTP servers)', () => {
  it('stdio: pins as served with a one-line note, then check compares and reports it', async () => {
    const lock = path.join(dir, 'stdio.lock.json');
    const pin = await gate('pin', '--lock', lock, ...stdio(write('v1.json', { tools: [loose, fine] })));
    assert.equal(pin.code, 0, pin.err);
    assert.match(pin.out, /^pinned 2 tools to /);
    assert.equal(
      pin.err,
      'note: read_file: the tool is not valid MCP: inputSchema has no "type", where MCP requires "type": "object"; it is pinned and compared as served\n',
    );
    assert.deepEqual(
      JSON.parse(fs.readFileSync(lock, 'utf8')).servers.default.tools.read_file.definition,
      loose,
    );

    const same = await gate('check', '--lock', lock, ...stdio(path.join(dir, 'v1.json')));
    assert.equal(same.code, 0);
    assert.equal(same.out, '', 'silent on an identical manifest');
    const strict = await gate(
      'check',
      '--lock',
      lock,
      '--strict-conformance',
      ...stdio(path.join(dir, 'v1.json')),
    );
    assert.equal(strict.code, 2);
    assert.match(
      strict.out,
      /^unknown: 1 tool flagged \(tool-not-conformant\)\n {2}read_file: unknown — the tool is not valid MCP/,
    );

    const broke = await gate(
      'check',
      '--lock',
      lock,
      '--json',
      ...stdio(write('v2.json', { tools: [tighter, fine] })),
    );
    assert.equal(broke.code, 1);
    const rules = JSON.parse(broke.out).servers[0].items[0].findings.map((f: { rule: string }) => f.rule);
    assert.deepEqual(rules.sort(), ['max-length-decreased', 'tool-not-conformant']);
  });

  it('HTTP: pins as served; a failure is one short line, never a validation dump', async () => {
    const server = await startHttpTools([loose], 'tok');
    try {
      const lock = path.join(dir, 'http.lock.json');
      const pin = await gate(
        'pin',
        '--url',
        server.url,
        '--header',
        'Authorization: Bearer tok',
        '--lock',
        lock,
      );
      assert.equal(pin.code, 0, pin.err);
      assert.equal(pin.err.split('\n').filter(Boolean).length, 1);
      const refused = await gate('pin', '--url', server.url, '--lock', path.join(dir, 'none.json'));
      assert.equal(refused.code, 3);
      assert.equal(refused.err.trim().split('\n').length, 1, refused.err);
    } finally {
      await server.close();
    }
  });

  it('a result that is not a tools list at all is refused in one line', async () => {
    const server = await startHttpTools('not a list' as unknown as unknown[], 'tok');
    try {
      const pin = await gate(
        'pin',
        '--url',
        server.url,
        '--header',
        'Authorization: Bearer tok',
        '--lock',
        path.join(dir, 'bad.json'),
      );
      assert.equal(pin.code, 3);
      assert.equal(pin.err.trim().split('\n').length, 1, pin.err);
      assert.ok(pin.err.length < 300, pin.err);
      assert.equal(fs.existsSync(path.join(dir, 'bad.json')), false);
    } finally {
      await server.close();
    }
  });
});
