import { parseArgs } from 'node:util';
import { UsageError } from './io.ts';
import { parseHeaders, type Source } from './sources.ts';

const OPTIONS = {
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  manifest: { type: 'string' },
  lock: { type: 'string' },
  port: { type: 'string' },
  calls: { type: 'string' },
  'strict-descriptions': { type: 'boolean' },
  'strict-open-objects': { type: 'boolean' },
  'strict-conformance': { type: 'boolean' },
  'allow-unknown': { type: 'boolean' },
  json: { type: 'boolean' },
  format: { type: 'string' },
  report: { type: 'string', multiple: true },
  force: { type: 'boolean' },
  tool: { type: 'string', multiple: true },
  item: { type: 'string', multiple: true },
  reason: { type: 'string' },
  server: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface GateArgs {
  source: Source;
  positionals: string[];
  lock: string;
  calls?: string;
  /** Local port of the HTTP proxy (0: any free one). */
  port?: number;
  strictDescriptions: boolean;
  strictOpenObjects: boolean;
  strictConformance: boolean;
  allowUnknown: boolean;
  json: boolean;
  format?: string;
  /** `--report FORMAT=FILE` values, as given (read by parseReports). */
  reports: string[];
  force: boolean;
  tools: string[];
  /** `--item KIND:NAME[@HASH]` values: reviewed changes to prompts, resources, skills… */
  items: string[];
  reason?: string;
  /** The server of a lock pinning several (from a client configuration). */
  server?: string;
  help: boolean;
}

/** Parses a gate subcommand's argv; everything after `--` is the stdio server command. */
export function parseGateArgs(argv: string[], allowed: readonly (keyof typeof OPTIONS)[]): GateArgs {
  const dash = argv.indexOf('--');
  const own = dash >= 0 ? argv.slice(0, dash) : argv;
  const command = dash >= 0 ? argv.slice(dash + 1) : [];
  let parsed;
  try {
    parsed = parseArgs({ args: own, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  for (const key of Object.keys(v)) {
    if (key !== 'help' && !allowed.includes(key as keyof typeof OPTIONS))
      throw new UsageError(`option --${key} does not apply here`);
  }
  if (command.length > 0 && !allowed.includes('url'))
    throw new UsageError('this command takes no server command');
  return {
    source: {
      url: v.url,
      manifest: v.manifest,
      headers: parseHeaders(v.header ?? []),
      command: command.length > 0 ? command : undefined,
    },
    positionals: parsed.positionals,
    lock: v.lock ?? 'mcp-lock.json',
    calls: v.calls,
    port: v.port === undefined ? undefined : parsePort(v.port),
    strictDescriptions: v['strict-descriptions'] === true,
    strictOpenObjects: v['strict-open-objects'] === true,
    strictConformance: v['strict-conformance'] === true,
    allowUnknown: v['allow-unknown'] === true,
    json: v.json === true,
    format: v.format,
    reports: v.report ?? [],
    force: v.force === true,
    tools: v.tool ?? [],
    items: v.item ?? [],
    reason: v.reason,
    server: v.server,
    help: v.help === true,
  };
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535)
    throw new UsageError(`--port must be a port number (0-65535), got "${text}"`);
  return n;
}

export const SOURCE_OPTIONS = ['url', 'header', 'manifest'] as const;
