// The runtime proxy's cost: the same stdio server called directly and through
// `warden-gate proxy`, side by side in one run. Per call: latency p50 and p99 of sequential
// calls; throughput with 16 calls in flight. Runs alternate (direct, proxy, direct, proxy…) so
// that a busy moment of the machine falls on both; the median run of each is reported.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { main } from '../src/cli/main.ts';
import { bufferIo } from '../src/host/io.ts';
import { bundled } from '../test/fixtures/compat/servers/bundled.ts';

const GATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(GATE, 'bin', 'warden-gate.js');
const SERVER = path.join(GATE, 'test', 'fixtures', 'compat', 'servers', 'stdio-tools.ts');

const SEQUENTIAL = 2000;
const CONCURRENT = 4000;
const IN_FLIGHT = 16;
const ROUNDS = 3;

interface Run {
  p50: number;
  p99: number;
  perSecond: number;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function measure(command: string, args: string[]): Promise<Run> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  try {
    await client.listTools();
    const call = () => client.callTool({ name: 'echo', arguments: { q: 'hello' } });
    for (let i = 0; i < 200; i++) await call(); // warm-up, both sides
    const times: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const t = performance.now();
      await call();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < CONCURRENT) await call();
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), perSecond: CONCURRENT / seconds };
  } finally {
    await client.close();
  }
}

const median = (runs: readonly Run[], key: keyof Run): number =>
  [...runs.map((r) => r[key])].sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? NaN;

export async function benchProxy(): Promise<string> {
  if (!fs.existsSync(path.join(GATE, 'dist', 'bin.js')))
    execFileSync(process.execPath, ['build.js'], { cwd: GATE, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-bench-proxy-'));
  try {
    const tools = path.join(dir, 'tools.json');
    fs.writeFileSync(
      tools,
      JSON.stringify({
        tools: [
          {
            name: 'echo',
            description: 'Echo',
            inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
          },
        ],
      }),
    );
    const lock = path.join(dir, 'lock.json');
    if ((await main(['pin', '--manifest', tools, '--lock', lock], bufferIo())) !== 0)
      throw new Error('cannot pin the bench tools');
    const server = [bundled(SERVER), tools];
    const direct: Run[] = [];
    const proxied: Run[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      direct.push(await measure(process.execPath, server));
      proxied.push(
        await measure(process.execPath, [BIN, 'proxy', '--lock', lock, '--', process.execPath, ...server]),
      );
    }
    const row = (name: string, runs: Run[]) =>
      `${name.padEnd(26)} ${median(runs, 'p50').toFixed(3).padStart(8)} ${median(runs, 'p99').toFixed(3).padStart(8)} ${median(runs, 'perSecond').toFixed(0).padStart(9)}`;
    const added = median(proxied, 'p50') - median(direct, 'p50');
    return [
      `tools/call over stdio, ${SEQUENTIAL} sequential calls (latency, ms) and ${CONCURRENT} with ${IN_FLIGHT} in flight (calls/s); median of ${ROUNDS} alternating runs`,
      `${''.padEnd(26)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'calls/s'.padStart(9)}`,
      row('direct', direct),
      row('through warden-gate proxy', proxied),
      `the proxy adds ${added.toFixed(3)} ms p50 per call (p99 ${(median(proxied, 'p99') - median(direct, 'p99')).toFixed(3)} ms); throughput ${((median(proxied, 'perSecond') / median(direct, 'perSecond')) * 100).toFixed(0)}% of direct`,
    ].join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
