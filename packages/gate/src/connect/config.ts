import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { targetFromEntry } from './entry.ts';
import { isObject } from './json.ts';
import { parseJsonc } from './jsonc.ts';
import { FORMS_BY_CLIENT, type ReferenceContext } from './references.ts';
import type { Target } from './types.ts';

export type ConfigFormat = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'mcp-servers';

const FORMAT_LABEL: Record<ConfigFormat, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  'mcp-servers': 'mcpServers',
};

/**
 * Which kinds of entry each client really starts from this file (docs/doctor.md has
 * the sources). Claude Desktop starts only local servers from
 * claude_desktop_config.json: remote servers are added in its settings as
 * connectors, and a "url" entry in the file is not started at all.
 */
const STARTS: Record<ConfigFormat, ReadonlySet<'http' | 'stdio'>> = {
  'claude-desktop': new Set(['stdio']),
  'claude-code': new Set(['stdio', 'http']),
  cursor: new Set(['stdio', 'http']),
  vscode: new Set(['stdio', 'http']),
  'mcp-servers': new Set(['stdio', 'http']),
};

const NOT_STARTED: Partial<Record<ConfigFormat, string>> = {
  'claude-desktop':
    'Claude Desktop does not start a "url" entry from claude_desktop_config.json: the file starts local (stdio) servers only. Add a remote server in Claude Desktop under Settings → Connectors, or give this entry a "command" (e.g. a local stdio server)',
};

export interface ClientConfig {
  file: string;
  format: ConfigFormat;
  label: string;
  targets: Target[];
}

/** A configuration file that cannot be read as any client's format: a usage error, exit 2. */
export class ConfigError extends Error {}

/**
 * Reads an MCP client configuration: Claude Desktop, Claude Code (`.mcp.json`) and
 * Cursor (`mcpServers`), or VS Code (`servers` plus `inputs`, in `mcp.json` or under
 * `mcp` in `settings.json`). Comments and trailing commas are accepted.
 */
export function readClientConfig(
  file: string,
  env: Record<string, string | undefined>,
  inputs: ReadonlyMap<string, string>,
): ClientConfig {
  const path = resolve(file);
  let parsed: unknown;
  try {
    parsed = parseJsonc(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isObject(parsed)) throw new ConfigError(`${file} does not hold a JSON object`);
  const vscodeRoot = isObject(parsed['mcp']) ? parsed['mcp'] : parsed;
  const format = detectFormat(path, parsed, vscodeRoot);
  const servers = format === 'vscode' ? vscodeRoot['servers'] : parsed['mcpServers'];
  if (!isObject(servers)) throw new ConfigError(`${file} has no servers`);

  const ctx: ReferenceContext = {
    env,
    inputs,
    inputDescriptions: format === 'vscode' ? inputDescriptions(vscodeRoot['inputs']) : new Map(),
    workspaceFolder: workspaceFolderOf(path),
    forms: FORMS_BY_CLIENT[format === 'mcp-servers' ? 'unknown' : format],
  };
  const label = `${FORMAT_LABEL[format]} ${basename(path)}`;
  const targets = Object.entries(servers).map(([name, entry]) => {
    const target = targetFromEntry(name, entry, label, ctx);
    if (!target.invalid && !STARTS[format].has(target.kind))
      target.invalid = NOT_STARTED[format] ?? `${FORMAT_LABEL[format]} does not start ${target.kind} entries`;
    return target;
  });
  return { file: path, format, label, targets };
}

function detectFormat(path: string, parsed: Record<string, unknown>, vscodeRoot: Record<string, unknown>) {
  if (!isObject(parsed['mcpServers']) && isObject(vscodeRoot['servers'])) return 'vscode';
  if (!isObject(parsed['mcpServers']))
    throw new ConfigError(
      `${path} has neither "mcpServers" (Claude Desktop, Claude Code, Cursor) nor "servers" (VS Code)`,
    );
  const name = basename(path);
  if (name === 'claude_desktop_config.json') return 'claude-desktop';
  if (basename(dirname(path)) === '.cursor') return 'cursor';
  if (name === '.mcp.json') return 'claude-code';
  return 'mcp-servers';
}

function inputDescriptions(raw: unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const input of Array.isArray(raw) ? raw : []) {
    if (isObject(input) && typeof input['id'] === 'string')
      out.set(input['id'], typeof input['description'] === 'string' ? input['description'] : '');
  }
  return out;
}

/** The folder an editor would call the workspace: the parent of `.vscode`/`.cursor`, else the file's folder. */
function workspaceFolderOf(path: string): string {
  const dir = dirname(path);
  return ['.vscode', '.cursor'].includes(basename(dir)) ? dirname(dir) : dir;
}
