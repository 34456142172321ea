import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';

const tool = (limit: string) => ({
  tools: [{ name: 'search', inputSchema: { type: 'object', properties: { limit: { type: limit } } } }],
});

const cwd = process.cwd();
let dir = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-git-'));
  process.chdir(dir);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      stdio: 'ignore',
    });
  git('init', '-q');
  fs.writeFileSync('tools.json', JSON.stringify(tool('number')));
  git('add', 'tools.json');
  git('commit', '-q', '-m', 'v1');
  fs.writeFileSync('tools.json', JSON.stringify(tool('integer')));
});
after(() => {
  process.chdir(cwd);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function gate(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

describe('diff REF:path reads a side from git', () => {
  it('HEAD:tools.json against the working copy: the committed version is OLD', async () => {
    const r = await gate('diff', 'HEAD:tools.json', 'tools.json');
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^ {2}search: breaking — type "number \(non-integer\)" is no longer accepted/m);
    assert.doesNotMatch(r.out, /accept:/, 'nothing can be accepted into a revision');
    assert.equal((await gate('diff', 'HEAD:tools.json', 'HEAD:./tools.json')).code, 0);
  });

  it('a revision or path git does not have is an error (3) in one line', async () => {
    const r = await gate('diff', 'HEAD:missing.json', 'tools.json');
    assert.equal(r.code, 3);
    assert.match(r.err, /^warden-gate diff: cannot read HEAD:missing\.json from git: .*missing\.json/);
    assert.equal(r.err.trim().split('\n').length, 1);
  });
});
