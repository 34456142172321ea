import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { explainFailure } from '../../src/connect/explain.ts';
import { launchStdio } from '../../src/connect/stdio.ts';
import { connectError } from './helpers.ts';

const INITIALIZE_FIRST = fileURLToPath(new URL('./fixtures/initialize-first.mjs', import.meta.url));

/** A child running `script` with this Node. */
const node = (script: string, env?: Record<string, string>) =>
  launchStdio({ command: process.execPath, args: ['-e', script], ...(env ? { env } : {}) });

describe('a stdio server that fails, explained from what the child did', () => {
  it('names the exit code and the last error line it wrote to stderr', async () => {
    const launched = node(
      `process.stderr.write('starting\\nfatal: WARDEN_TOKEN is not set\\n'); process.exit(3)`,
    );
    const err = await connectError(launched.transport);
    const evidence = await launched.settled();
    assert.equal(evidence.exitCode, 3);
    assert.equal(evidence.signal, null);
    assert.equal(evidence.stderrTail, 'starting\nfatal: WARDEN_TOKEN is not set\n');
    assert.equal(
      explainFailure(err, { stdio: evidence }),
      'the server exited with code 3 before answering: fatal: WARDEN_TOKEN is not set',
    );
  });

  it('names a command that does not exist', async () => {
    const launched = launchStdio({ command: 'warden-no-such-command', args: ['--stdio'] });
    const err = await connectError(launched.transport);
    assert.equal(
      explainFailure(err, { stdio: await launched.settled() }),
      'command not found: warden-no-such-command (ENOENT); is it installed and on PATH?',
    );
  });

  it('records the spawn error when its own transport is the one that could not start', async () => {
    const launched = launchStdio({ command: 'warden-no-such-command' });
    await assert.rejects(launched.transport.start(), { code: 'ENOENT' });
    const evidence = launched.evidence();
    assert.equal(evidence.spawnError?.code, 'ENOENT');
    assert.equal(
      explainFailure(new Error('Connection closed'), { stdio: evidence }),
      'command not found: warden-no-such-command (ENOENT); is it installed and on PATH?',
    );
  });

  it('names a file that is not executable', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'connect-eacces-'));
    const file = path.join(dir, 'server.sh');
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o644 });
    try {
      const err = await connectError(launchStdio({ command: file }).transport);
      assert.equal(
        explainFailure(err),
        `permission denied running ${file} (EACCES); is it an executable file?`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the signal that killed it', async () => {
    const launched = node(`process.kill(process.pid, 'SIGKILL')`);
    const err = await connectError(launched.transport);
    const evidence = await launched.settled();
    assert.equal(evidence.signal, 'SIGKILL');
    assert.equal(
      explainFailure(err, { stdio: evidence }),
      'the server was killed by SIGKILL before answering',
    );
  });

  it('says how long it waited for a child that never answers, and not that it was killed', async () => {
    const launched = node(`process.stderr.write('waiting for the database\\n'); setInterval(() => {}, 1000)`);
    const err = await connectError(launched.transport, 300);
    // The client has closed the transport: the child's end was ours, not the server's.
    const evidence = await launched.settled();
    assert.equal(evidence.exitCode, null);
    assert.equal(evidence.signal, null);
    assert.equal(
      explainFailure(err, { stdio: evidence }),
      'no answer within 0.3 s: waiting for the database',
    );
  });

  it('reads a flood of stderr without blocking the child, and keeps only its tail', async () => {
    // The child ends only once its 1 MB is written: a parent that stopped reading would hang it.
    const launched = node(
      `for (let i = 0; i < 20000; i++) process.stderr.write('progress line ' + i + ' ' + '.'.repeat(40) + '\\n');` +
        `process.stderr.write('Error: out of disk\\n'); process.exitCode = 5`,
    );
    const err = await connectError(launched.transport);
    const evidence = await launched.settled(5000);
    assert.equal(evidence.exitCode, 5);
    assert.ok(evidence.stderrTail.length <= 4096, `tail of ${evidence.stderrTail.length} characters`);
    const lines = evidence.stderrTail.split('\n');
    assert.equal(lines.length, 21);
    assert.match(lines[0]!, /^progress line 19981 /);
    assert.equal(
      explainFailure(err, { stdio: evidence }),
      'the server exited with code 5 before answering: Error: out of disk',
    );
  });

  it('never prints a secret the child echoes: known values and credential shapes are masked', async () => {
    const env = { PATH: process.env['PATH'] ?? '', SERVICE_KEY: 'hunter2-very-secret' };
    const launched = node(
      `process.stderr.write('fatal: key ' + process.env.SERVICE_KEY + ' refused by https://bot:pw@api.example/v1?api_key=abc123\\n'); process.exit(1)`,
      env,
    );
    const err = await connectError(launched.transport);
    assert.equal(
      explainFailure(err, { stdio: await launched.settled(), secrets: Object.values(env) }),
      'the server exited with code 1 before answering: fatal: key *** refused by https://***@api.example/v1?api_key=***',
    );
  });

  it('leaves a working server working, even one that dies on a request before initialize', async () => {
    // The SDK probes the version on a throwaway sibling only for its own transport class: a
    // launcher that subclassed it would send the probe to this server and kill it.
    const launched = launchStdio({ command: process.execPath, args: [INITIALIZE_FIRST] });
    const client = new Client(
      { name: 'connect-test', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(launched.transport);
    assert.deepEqual((await client.listTools()).tools, []);
    await client.close();
    // Stopped by us: nothing to report about the server.
    assert.deepEqual(await launched.settled(), {
      exitCode: null,
      signal: null,
      stderrTail: '',
      spawnError: null,
    });
  });
});
