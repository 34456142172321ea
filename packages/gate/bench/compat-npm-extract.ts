// Extracts the tool manifests of published MCP servers from the npm registry, version by
// version, for the gate's benchmark on real schemas: each version is installed into a
// temporary folder with npm, started over stdio, and asked tools/list through the official
// client (pages read as sent, so a manifest that is not valid MCP is kept as it was served).
// Writes bench/data/npm-tools.json. Needs the npm registry; the benchmark itself runs offline.
//
//   node --import tsx bench/compat-npm-extract.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { listToolsAsSent } from '../src/connect/list-as-sent.ts';
import { DATA, type Release } from './compat-npm-data.ts';
import { installRelease } from './npm-release.ts';

export const NPM_SERVERS: Record<string, string[]> = {
  '@modelcontextprotocol/server-filesystem': [
    '0.6.2',
    '2025.1.14',
    '2025.3.28',
    '2025.7.1',
    '2025.7.29',
    '2025.8.21',
    '2025.11.25',
    '2026.1.14',
    '2026.8.31',
  ],
  '@modelcontextprotocol/server-memory': [
    '0.6.2',
    '2025.4.25',
    '2025.8.4',
    '2025.9.25',
    '2026.1.26',
    '2026.8.31',
  ],
  '@modelcontextprotocol/server-everything': [
    '0.6.2',
    '2025.1.14',
    '2025.4.8',
    '2025.5.12',
    '2025.7.29',
    '2025.9.25',
    '2025.12.18',
    '2026.1.26',
    '2026.8.31',
  ],
};

async function extract(pkg: string, version: string): Promise<Release> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-npm-'));
  try {
    const bin = installRelease(dir, pkg, version, 300_000);
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    const args = pkg.endsWith('server-filesystem')
      ? [work]
      : pkg.endsWith('server-everything')
        ? ['stdio']
        : [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, ...args],
      cwd: work,
      env: { ...process.env, MEMORY_FILE_PATH: path.join(work, 'memory.json') } as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'warden-bench', version: '0.1.0' });
    await client.connect(transport, { timeout: 60_000 });
    try {
      return { package: pkg, version, tools: await listToolsAsSent(client, 60_000) };
    } finally {
      await client.close().catch(() => undefined);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const releases: Release[] = [];
  for (const [pkg, versions] of Object.entries(NPM_SERVERS)) {
    for (const version of versions) {
      try {
        const r = await extract(pkg, version);
        releases.push(r);
        console.log(`${pkg}@${version}: ${r.tools.length} tools`);
      } catch (err) {
        console.log(
          `${pkg}@${version}: skipped (${err instanceof Error ? err.message.split('\n')[0] : err})`,
        );
      }
    }
  }
  fs.mkdirSync(path.dirname(DATA), { recursive: true });
  fs.writeFileSync(
    DATA,
    `${JSON.stringify({ extractedWith: 'bench/compat-npm-extract.ts', releases }, null, 1)}\n`,
  );
  console.log(`wrote ${releases.length} releases to ${path.relative(process.cwd(), DATA)}`);
}
