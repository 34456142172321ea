import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const GATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = [
  'README.md',
  path.join('action', 'README.md'),
  ...fs.readdirSync(path.join(GATE, 'docs')).map((f) => path.join('docs', f)),
];

describe('the commands the README and docs show', () => {
  it('run the gate through npx as npm 10 and 11 both read it: npx --no -- warden-gate', () => {
    for (const page of PAGES) {
      const lines = fs.readFileSync(path.join(GATE, page), 'utf8').split('\n');
      lines.forEach((line, i) => {
        // npm 10 and 11 take an option after --no as npx's own: `npx --no warden-gate --help`
        // prints npm's help. `--` ends npx's options.
        if (/\bnpx\b[^`]*\bwarden-gate\b/.test(line))
          assert.match(line, /\bnpx --no -- warden-gate\b/, `${page}:${i + 1}: ${line.trim()}`);
      });
    }
  });

  it('npx --no -- warden-gate --help prints the gate’s help, not npm’s', async () => {
    const { stdout } = await promisify(execFile)('npx', ['--no', '--', 'warden-gate', '--help'], {
      cwd: GATE,
      env: { ...process.env, npm_config_offline: 'true' },
    });
    assert.match(stdout, /^Usage: warden-gate <pin\|check\|diff\|accept\|proxy>/);
  });
});
