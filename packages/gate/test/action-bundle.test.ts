import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const GATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

describe("the Action's committed bundle", () => {
  it('is what action/build.js builds from these sources: git diff --exit-code after a build is clean', async () => {
    await run(process.execPath, [path.join(GATE, 'action', 'build.js')], { cwd: GATE });
    const diff = await run('git', ['diff', '--exit-code', '--stat', '--', 'action/bundle'], {
      cwd: GATE,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (err: { code: number; stdout: string }) => err,
    );
    assert.equal(
      diff.code,
      0,
      `action/bundle/ is out of date: run "node packages/gate/action/build.js" and commit it\n${diff.stdout}`,
    );
    const { stdout: untracked } = await run(
      'git',
      ['ls-files', '--others', '--exclude-standard', '--', 'action/bundle'],
      { cwd: GATE },
    );
    assert.equal(untracked, '', 'every file of the bundle is committed');
    const { stdout: version } = await run(process.execPath, [
      path.join(GATE, 'action', 'bundle', 'warden-gate.mjs'),
      '--version',
    ]);
    assert.match(version, /^warden-gate \d+\.\d+\.\d+/);
  });
});
