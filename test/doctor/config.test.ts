import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readClientConfig } from '../../src/doctor/index.ts';
import { parseJsonc } from '@warden-mcp/gate/connect';
import { startClub, type TestClub } from '../helpers/club.ts';
import { doctor, doctorJson, tempDir, writeConfig } from './support.ts';

describe('doctor reads the client configurations people have', () => {
  let club: TestClub;
  let tmp: ReturnType<typeof tempDir>;
  let token: string;
  before(async () => {
    club = await startClub();
    tmp = tempDir();
    token = (await club.addMember('alice')).token;
  });
  after(async () => {
    await club.close();
    tmp.remove();
  });

  function vscodeConfig(dir: string): string {
    // VS Code writes JSON with comments; the token comes from a prompt.
    return writeConfig(
      tmp.dir,
      `${dir}/.vscode/mcp.json`,
      `{
  // the club's server
  "inputs": [
    { "type": "promptString", "id": "warden-token", "description": "Warden agent token", "password": true },
  ],
  "servers": {
    "club": {
      "type": "http",
      "url": "${club.server.mcpUrl}",
      "headers": { "Authorization": "Bearer \${input:warden-token}" }, /* prompted at start */
    },
  },
}`,
    );
  }

  it('a VS Code config with ${input:…}: the reference is reported, the header is not sent half-filled, exit 1', async () => {
    const file = vscodeConfig('vscode-unresolved');
    const { code, server } = await doctorJson(['--config', file]);
    assert.equal(code, 1);
    assert.equal(server.status, 'unresolved');
    assert.equal(server.tier, 'anonymous');
    assert.deepEqual(
      server.references.map((r) => [r.field, r.text, r.kind, r.resolved]),
      [['headers.Authorization', '${input:warden-token}', 'input', false]],
    );
    const reason = server.reasons[0] ?? '';
    assert.match(reason, /^the Authorization header was not sent: it uses \$\{input:warden-token\}/);
    assert.match(reason, /"Warden agent token"/);
    assert.equal(server.fix, 'rerun with --input warden-token=wdn_… to check the token VS Code would send');
    assert.ok(server.checks.some((c) => c.id === 'reference' && c.ok === false));
    assert.equal(server.checks.find((c) => c.id === 'tier')?.ok, false);
  });

  it('the same VS Code config with --input: the value is filled in as the prompt would, member, exit 0', async () => {
    const file = vscodeConfig('vscode-resolved');
    const { code, server } = await doctorJson([
      '--config',
      file,
      '--input',
      `warden-token=${token}`,
      '--expect',
      'member',
    ]);
    assert.equal(code, 0);
    assert.equal(server.tier, 'member');
    assert.equal(server.tools, 14);
    assert.deepEqual(
      server.references.map((r) => r.resolved),
      [true],
    );
  });

  it('header names are case-insensitive: a lower-case authorization with ${input:…} is still the credential', async () => {
    const file = writeConfig(tmp.dir, 'lower/.vscode/mcp.json', {
      servers: {
        club: { type: 'http', url: club.server.mcpUrl, headers: { authorization: 'Bearer ${input:t}' } },
      },
    });
    const { code, server } = await doctorJson(['--config', file]);
    assert.equal(code, 1);
    assert.equal(server.status, 'unresolved');
    assert.match(server.reasons[0] ?? '', /^the Authorization header was not sent: it uses \$\{input:t\}/);
  });

  it('${env:…} in a Cursor config is filled in from the environment, and reported', async () => {
    const file = writeConfig(tmp.dir, 'cursor-env/.cursor/mcp.json', {
      mcpServers: {
        club: { url: club.server.mcpUrl, headers: { Authorization: 'Bearer ${env:CLUB_TOKEN}' } },
      },
    });
    const set = await doctorJson(['--config', file, '--expect', 'member'], { CLUB_TOKEN: token });
    assert.equal(set.code, 0);
    assert.equal(set.server.references[0]?.resolved, true);
    assert.ok(
      set.server.checks.some((c) => c.id === 'reference' && /filled in from the environment/.test(c.message)),
    );

    const unset = await doctorJson(['--config', file, '--expect', 'member'], {});
    assert.equal(unset.code, 1);
    assert.match(unset.server.reasons[0] ?? '', /CLUB_TOKEN is not set in this environment/);
    assert.equal(unset.server.fix, 'set CLUB_TOKEN in the environment the client starts from');
  });

  it('a reference in a form the client does not fill in is sent as written, and the doctor says so', async () => {
    const file = writeConfig(tmp.dir, 'literal/.mcp.json', {
      mcpServers: {
        club: {
          type: 'http',
          url: club.server.mcpUrl,
          headers: { Authorization: 'Bearer ${env:CLUB_TOKEN}' },
        },
      },
    });
    const { code, server } = await doctorJson(['--config', file], { CLUB_TOKEN: token });
    assert.equal(code, 1);
    assert.equal(server.status, 'rejected');
    assert.match(server.reasons[0] ?? '', /^the Authorization header is malformed/);
    assert.equal(
      server.reasons[1],
      'the credential holds ${env:CLUB_TOKEN}, which this client does not fill in',
    );
    assert.deepEqual(
      server.references.map((r) => [r.text, r.literal]),
      [['${env:CLUB_TOKEN}', true]],
    );
    assert.match(server.fix ?? '', /sends \$\{env:CLUB_TOKEN\} as written/);
  });

  it('--server picks one entry; an unknown name is a usage error (exit 2) listing the names', async () => {
    const file = writeConfig(tmp.dir, 'two/.mcp.json', {
      mcpServers: {
        club: { type: 'http', url: club.server.mcpUrl, headers: { Authorization: `Bearer ${token}` } },
        other: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      },
    });
    const one = await doctorJson(['--config', file, '--server', 'club']);
    assert.equal(one.all.length, 1);
    assert.equal(one.code, 0);
    const both = await doctorJson(['--config', file]);
    assert.deepEqual(
      both.all.map((s) => [s.name, s.status]),
      [
        ['club', 'healthy'],
        ['other', 'unreachable'],
      ],
    );
    assert.equal(both.code, 2, 'the worst server decides the exit code');
    const bad = await doctor(['--config', file, '--server', 'nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /no server named nope .*\(it has: club, other\)/);
  });

  it('an entry with neither url nor command cannot be run: exit 2', async () => {
    const file = writeConfig(tmp.dir, 'broken/.mcp.json', { mcpServers: { club: { headers: {} } } });
    const { code, server } = await doctorJson(['--config', file]);
    assert.equal(code, 2);
    assert.equal(server.status, 'invalid_entry');
    assert.match(server.reasons[0] ?? '', /neither a "url" nor a "command"/);
  });

  it('a file in no known format is a usage error', async () => {
    const file = writeConfig(tmp.dir, 'nothing.json', { hello: 'world' });
    const run = await doctor(['--config', file]);
    assert.equal(run.code, 2);
    assert.match(run.err, /neither "mcpServers" .* nor "servers" \(VS Code\)/);
  });

  it('recognises each format and reads stdio, http and sse entries', () => {
    const desktop = writeConfig(tmp.dir, 'desk/claude_desktop_config.json', {
      mcpServers: {
        club: { command: 'node', args: ['bin/warden.js', 'stdio'], env: { WARDEN_TOKEN: '${TOKEN:-none}' } },
      },
    });
    const cfg = readClientConfig(desktop, {}, new Map());
    assert.equal(cfg.format, 'claude-desktop');
    const t = cfg.targets[0];
    assert.equal(t?.kind, 'stdio');
    // Claude Desktop fills in no references: the text goes to the process as written.
    assert.deepEqual(t?.kind === 'stdio' ? [t.command, t.args, t.env] : null, [
      'node',
      ['bin/warden.js', 'stdio'],
      { WARDEN_TOKEN: '${TOKEN:-none}' },
    ]);
    assert.deepEqual(
      t?.references.map((r) => [r.text, r.literal, r.resolved]),
      [['${TOKEN:-none}', true, false]],
    );

    const withDefault = writeConfig(tmp.dir, 'code-default/.mcp.json', {
      mcpServers: {
        club: { command: 'node', env: { WARDEN_TOKEN: '${TOKEN:-none}', HOME_DIR: '${env:HOME}' } },
      },
    });
    const claudeCode = readClientConfig(withDefault, {}, new Map()).targets[0];
    assert.deepEqual(claudeCode?.kind === 'stdio' ? claudeCode.env : null, {
      WARDEN_TOKEN: 'none',
      HOME_DIR: '${env:HOME}',
    });

    const code = writeConfig(tmp.dir, 'code/.mcp.json', {
      mcpServers: { a: { type: 'sse', url: 'http://127.0.0.1:1/sse' }, b: { type: 'stdio', command: 'x' } },
    });
    const parsed = readClientConfig(code, {}, new Map());
    assert.equal(parsed.format, 'claude-code');
    assert.deepEqual(
      parsed.targets.map((x) => (x.kind === 'http' ? x.transport : x.kind)),
      ['sse', 'stdio'],
    );
    const settings = writeConfig(tmp.dir, 'ws/.vscode/settings.json', {
      mcp: { servers: { s: { command: '${workspaceFolder}/run' } } },
    });
    const vs = readClientConfig(settings, {}, new Map());
    assert.equal(vs.format, 'vscode');
    const s = vs.targets[0];
    assert.equal(s?.kind === 'stdio' ? s.command : null, `${tmp.dir}/ws/run`);
  });

  it('JSONC: comments and trailing commas go, strings keep them', () => {
    assert.deepEqual(parseJsonc('{ "a": "// not a comment, }", /* x */ "b": [1, 2,], // y\n }'), {
      a: '// not a comment, }',
      b: [1, 2],
    });
    // A byte order mark that an editor wrote first is skipped, as VS Code skips it.
    assert.deepEqual(parseJsonc('\uFEFF{ "servers": {} // y\n}'), { servers: {} });
  });
});
