import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { processesWith } from '../processes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'warden-gate.js');
const STUBBORN = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'stubborn.ts');
const run = promisify(execFile);

describe(
  'a server started through a launcher is stopped with it',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  () => {
    let dir = '';
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-orphans-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('pin through `sh -c` leaves no server behind, though the server ignores its stdin closing', async () => {
      const tools = path.join(dir, 'tools.json');
      fs.writeFileSync(tools, JSON.stringify({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] }));
      // `; true` keeps the shell as the server's parent (no exec): the server is a grandchild.
      const script = `"${process.execPath}" --conditions=warden-source --import tsx "${STUBBORN}" "${tools}"; true`;
      const lock = path.join(dir, 'lock.json');
      const { stdout } = await run(process.execPath, [BIN, 'pin', '--lock', lock, '--', 'sh', '-c', script], {
        cwd: ROOT,
        timeout: 60_000,
      });
      assert.match(stdout, /^pinned 1 tool/);
      let left = processesWith(tools);
      for (let i = 0; i < 20 && left.length > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = processesWith(tools);
      }
      assert.deepEqual(left, []);
    });
  },
);
