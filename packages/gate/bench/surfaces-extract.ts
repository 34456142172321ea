// Snapshots what releases of @modelcontextprotocol/server-everything serve an agent, as raw
// JSON: identity, instructions, capabilities, and every page of tools, prompts, resources and
// resource templates, so the gate can be tested on every surface against a real server. Each
// release is installed from the npm registry into a temporary folder, started over stdio
// (`mcp-server-everything stdio`) and read through the official client on the 2025 handshake,
// with the initialize result kept as sent. Writes test/fixtures/compat/everything/<version>.json
// and a README.md there. Needs the npm registry; every step is bounded in time and pages.
//
//   node --conditions=warden-source --import tsx bench/surfaces-extract.ts [version ...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client,
  type JSONRPCMessage,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const PKG = '@modelcontextprotocol/server-everything';
// An old release, the last before small schema and prompt edits, and the newest (2026-12).
const VERSIONS = ['2025.7.29', '2026.1.26', '2026.8.31'];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'test', 'fixtures', 'compat', 'everything');
const MAX_PAGES = 1000;
const REQUEST_TIMEOUT = 60_000;
const INSTALL_TIMEOUT = 300_000;

/** One release's surfaces, each list as the server sent it. */
export interface Snapshot {
  server: unknown;
  instructions: string | null;
  capabilities: Record<string, unknown>;
  tools: unknown[];
  prompts: unknown[];
  resources: unknown[];
  resourceTemplates: unknown[];
}

/** A result schema that accepts whatever the server sent, so nothing is dropped or reshaped. */
const AS_SENT: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'warden', validate: (value) => ({ value }) },
};

/** Passes every message through and keeps the initialize result exactly as it arrived. */
class InitializeTap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  initialize?: Record<string, unknown>;
  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const result = (message as { result?: Record<string, unknown> }).result;
      if (this.initialize === undefined && result && 'serverInfo' in result) this.initialize = result;
      this.onmessage?.(message, extra);
    };
  }
  start = (): Promise<void> => this.inner.start();
  send = (message: JSONRPCMessage): Promise<void> => this.inner.send(message);
  close = (): Promise<void> => this.inner.close();
}

/** Every page of one list method, bounded by MAX_PAGES. */
async function listAll(client: Client, method: string, key: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = cursor === undefined ? {} : { cursor };
    const result = (await client.request({ method, params }, AS_SENT, {
      timeout: REQUEST_TIMEOUT,
    })) as Record<string, unknown>;
    if (!Array.isArray(result[key])) throw new Error(`${method} sent no "${key}" array`);
    items.push(...(result[key] as unknown[]));
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined) return items;
  }
  throw new Error(`${method} still had pages after ${MAX_PAGES}`);
}

interface Extracted {
  snapshot: Snapshot;
  protocolVersion: string;
  sdkVersion: string;
}

/** Installs one release, starts it over stdio and reads every surface it declares. */
async function extract(version: string): Promise<Extracted> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-everything-'));
  try {
    const install = ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--omit=dev'];
    execFileSync('npm', [...install, `${PKG}@${version}`], { stdio: 'ignore', timeout: INSTALL_TIMEOUT });
    const modules = path.join(dir, 'node_modules');
    const readManifest = (name: string) =>
      JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'), 'utf8')) as {
        version: string;
        bin?: string | Record<string, string>;
      };
    const { bin } = readManifest(PKG);
    const main = typeof bin === 'string' ? bin : Object.values(bin ?? {})[0];
    if (!main) throw new Error(`${PKG}@${version} has no bin`);
    const tap = new InitializeTap(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(modules, PKG, main), 'stdio'],
        cwd: dir,
        stderr: 'ignore',
      }),
    );
    const client = new Client({ name: 'warden-surfaces-extract', version: '0.1.0' });
    await client.connect(tap, { timeout: REQUEST_TIMEOUT });
    try {
      const init = tap.initialize ?? {};
      const capabilities = (init.capabilities ?? {}) as Record<string, unknown>;
      const declared = (name: string, method: string, key: string) =>
        name in capabilities ? listAll(client, method, key) : Promise.resolve([]);
      const snapshot: Snapshot = {
        server: init.serverInfo,
        instructions: typeof init.instructions === 'string' ? init.instructions : null,
        capabilities,
        tools: await declared('tools', 'tools/list', 'tools'),
        prompts: await declared('prompts', 'prompts/list', 'prompts'),
        resources: await declared('resources', 'resources/list', 'resources'),
        resourceTemplates: await declared('resources', 'resources/templates/list', 'resourceTemplates'),
      };
      const protocolVersion = String(init.protocolVersion);
      return { snapshot, protocolVersion, sdkVersion: readManifest('@modelcontextprotocol/sdk').version };
    } finally {
      await client.close().catch(() => undefined);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function readme(rows: { version: string; x: Extracted }[], command: string): string {
  const date = new Date().toISOString().slice(0, 10);
  const table = rows.map(({ version, x }) => {
    const s = x.snapshot;
    const counts = [s.tools, s.prompts, s.resources, s.resourceTemplates].map((l) => l.length).join(' | ');
    return `| ${version} | ${x.sdkVersion} | ${x.protocolVersion} | ${counts} |`;
  });
  return `# server-everything, release by release

What releases of [\`${PKG}\`](https://www.npmjs.com/package/${PKG}) (the MCP reference
test server, from the npm registry) serve an agent, as raw JSON, one file per release:

    { server, instructions, capabilities, tools, prompts, resources, resourceTemplates }

\`server\`, \`instructions\` and \`capabilities\` are the initialize result's \`serverInfo\`,
\`instructions\` (null when absent) and \`capabilities\` as sent; each list is every page of
\`tools/list\`, \`prompts/list\`, \`resources/list\` and \`resources/templates/list\` as sent
(an empty list where the capability is not declared). Each release was installed with
\`npm install --omit=dev --ignore-scripts\` (its dependencies resolved on that day), started as
\`mcp-server-everything stdio\` and read by the official TypeScript client over stdio on the
2025 handshake. The oldest and the newest release differ by a rewrite (almost every name
changed); neighbouring releases differ by small edits.

Made on ${date}, from \`packages/gate\`, with:

    ${command}

| release | MCP SDK installed | protocol | tools | prompts | resources | templates |
| --- | --- | --- | --- | --- | --- | --- |
${table.join('\n')}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const versions = process.argv.length > 2 ? process.argv.slice(2) : VERSIONS;
  const rows: { version: string; x: Extracted }[] = [];
  fs.mkdirSync(OUT, { recursive: true });
  for (const version of versions) {
    const x = await extract(version);
    const file = path.join(OUT, `${version}.json`);
    fs.writeFileSync(file, `${JSON.stringify(x.snapshot, null, 2)}\n`);
    const kb = Math.round(fs.statSync(file).size / 1024);
    console.log(`${PKG}@${version}: ${path.relative(ROOT, file)} (${kb} KB)`);
    rows.push({ version, x });
  }
  const command = `node --conditions=warden-source --import tsx bench/surfaces-extract.ts ${versions.join(' ')}`;
  fs.writeFileSync(path.join(OUT, 'README.md'), readme(rows, command));
}
