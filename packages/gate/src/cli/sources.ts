import fs from 'node:fs';
import { parseManifest, type Tool } from '../compat/index.ts';
import { UsageError } from './io.ts';
import { briefError, listToolsAsSent } from '../connect/list-as-sent.ts';

/** Where a live manifest comes from: exactly one of a URL, a file, or a stdio command. */
export interface Source {
  url?: string;
  headers: Record<string, string>;
  manifest?: string;
  command?: string[];
}

export function parseHeaders(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`--header must look like "Name: value", got "${h}"`);
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return out;
}

export function describeSource(source: Source): string {
  return source.url ?? source.manifest ?? (source.command ?? []).join(' ');
}

/** Exactly one source, or a usage error. */
export function checkSource(source: Source): void {
  const count = [source.url, source.manifest, source.command?.length ? source.command : undefined].filter(
    Boolean,
  ).length;
  if (count !== 1)
    throw new UsageError('give exactly one source: --url URL, --manifest FILE, or -- COMMAND ARGS...');
}

/** Reads a JSON file or fails with a message naming it (never a stack). */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not valid JSON`);
  }
}

/**
 * Fetches `tools/list` (every page) from the source: the official MCP client does the
 * handshake (either protocol era), and the pages are read as sent, so a server whose tools
 * are not valid MCP is still pinned and compared (its non-conformance becomes a finding).
 */
export async function loadTools(source: Source): Promise<Tool[]> {
  checkSource(source);
  if (source.manifest) {
    try {
      return parseManifest(readJsonFile(source.manifest));
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`${source.manifest}: ${(err as Error).message}`);
    }
  }
  const { Client } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: 'warden-gate', version: '0.1.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  let transport;
  if (source.url) {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    let url: URL;
    try {
      url = new URL(source.url);
    } catch {
      throw new UsageError(`--url is not a URL: ${source.url}`);
    }
    transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: source.headers } });
  } else {
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const [command, ...args] = source.command as string[];
    transport = new StdioClientTransport({ command: command as string, args, stderr: 'ignore' });
  }
  try {
    await client.connect(transport);
    return parseManifest({ tools: await listToolsAsSent(client) });
  } catch (err) {
    throw new UsageError(`cannot list tools from ${describeSource(source)}: ${briefError(err)}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}
