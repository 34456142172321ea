import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { README, withCommandTable } from '../../src/cli/readme-commands.ts';
import { commandNodes, commandTree } from '../../src/cli/tree.ts';

/**
 * Help everywhere: every node of the command tree — the root, each group, each
 * command — answers --help and -h with exit 0 and a usage, without touching a store;
 * each parent's help names its children; the README's table is the generated one.
 */
describe('warden --help, on the whole command tree', () => {
  const nodes = commandNodes();

  it('covers the tree: the five commands, every admin and gate command, admin init', () => {
    const leaves = commandTree().map((d) => d.path.join(' '));
    for (const expected of [
      'serve',
      'stdio',
      'doctor',
      'admin init',
      'admin principal add',
      'admin decisions decide',
      'gate proxy',
    ])
      assert.ok(leaves.includes(expected), expected);
    assert.ok(nodes.length > leaves.length, 'groups are nodes too');
  });

  for (const path of nodes) {
    it(`warden ${path.join(' ')} --help / -h`.replace(/\s+/g, ' '), async () => {
      for (const flag of ['--help', '-h']) {
        // A store path that does not exist: help must never open (or create) one.
        const io = bufferIo({ WARDEN_DB: '/nonexistent/warden-help/x.db' });
        const code = await main([...path, flag], io);
        const out = io.out.join('');
        assert.equal(code, 0, `exit code; stderr: ${io.err.join('')}`);
        assert.match(out, /^Usage:/);
        assert.equal(io.err.join(''), '');
        const children = new Set(
          nodes
            .filter((n) => n.length === path.length + 1 && path.every((p, i) => n[i] === p))
            .map((n) => n.at(-1)!),
        );
        for (const child of children) assert.match(out, new RegExp(`\\b${child}\\b`), `names ${child}`);
      }
    });
  }

  it('the stdio summary names both ways it starts: a token in WARDEN_TOKEN, or --anonymous', () => {
    // Without either, warden stdio refuses to start: a summary naming only the token hid the other way.
    const stdio = commandTree().find((d) => d.path.join(' ') === 'stdio');
    assert.match(stdio?.summary ?? '', /\bWARDEN_TOKEN\b/);
    assert.match(stdio?.summary ?? '', /--anonymous\b/);
  });

  it('every leaf usage names the command it belongs to', () => {
    for (const d of commandTree())
      for (const u of d.usages)
        assert.ok(u.includes(`warden ${d.path.join(' ')}`), `${u} names ${d.path.join(' ')}`);
  });

  it("the README's command table is the one generated from the tree (npm run readme)", () => {
    const readme = readFileSync(README, 'utf8');
    assert.equal(readme, withCommandTable(readme), 'README.md is stale: run npm run readme');
    assert.match(readme, /decisions decide ID --approve\\\|--deny --as HANDLE/);
  });
});
