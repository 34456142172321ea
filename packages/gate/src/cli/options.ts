import { parseArgs } from 'node:util';
import { UsageError } from '../host/io.ts';
import { parseHeaders, type Source } from '../sources/sources.ts';

const OPTIONS = {
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  manifest: { type: 'string' },
  config: { type: 'string' },
  input: { type: 'string', multiple: true },
  offline: { type: 'boolean' },
  lock: { type: 'string' },
  port: { type: 'string' },
  timeout: { type: 'string' },
  calls: { type: 'string' },
  'strict-descriptions': { type: 'boolean' },
  'strict-open-objects': { type: 'boolean' },
  'strict-conformance': { type: 'boolean' },
  'allow-unknown': { type: 'boolean' },
  'config-file': { type: 'string' },
  'fail-on': { type: 'string' },
  json: { type: 'boolean' },
  format: { type: 'string' },
  verbose: { type: 'boolean' },
  report: { type: 'string', multiple: true },
  force: { type: 'boolean' },
  tool: { type: 'string', multiple: true },
  item: { type: 'string', multiple: true },
  all: { type: 'boolean' },
  reason: { type: 'string' },
  'update-lock': { type: 'boolean' },
  server: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface GateArgs {
  source: Source;
  /** A client configuration naming the servers (instead of one source). */
  config?: string;
  /** `--input ID=VALUE` values filling a VS Code configuration's `${input:ID}` references. */
  inputs: string[];
  /** Never ask the registry which version an `npx`-style launch resolves to. */
  offline: boolean;
  positionals: string[];
  lock: string;
  calls?: string;
  /** Local port of the HTTP proxy (0: any free one). */
  port?: number;
  strictDescriptions: boolean;
  strictOpenObjects: boolean;
  strictConformance: boolean;
  allowUnknown: boolean;
  /** The gate's own configuration (levels, exceptions); --config is a client's. */
  configFile?: string;
  /** The lowest level that fails the run; absent: the configuration's, else error. */
  failOn?: 'error' | 'warning' | 'info';
  json: boolean;
  format?: string;
  /** List compatible findings one by one in the reports, not as a count. */
  verbose: boolean;
  /** `--report FORMAT=FILE` values, as given (read by parseReports). */
  reports: string[];
  force: boolean;
  tools: string[];
  /** `--item KIND:NAME[@HASH]` values: reviewed changes to prompts, resources, skills… */
  items: string[];
  /** accept: every pending change, with one reason (--reason) recorded for all of them. */
  all: boolean;
  reason?: string;
  /** check: take a compatible run's drift into the lock (never a breaking or unknown one). */
  updateLock: boolean;
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
      ...(v.timeout === undefined ? {} : { timeoutMs: parseTimeout(v.timeout) }),
    },
    config: v.config,
    inputs: v.input ?? [],
    offline: v.offline === true,
    positionals: parsed.positionals,
    lock: v.lock ?? 'mcp-lock.json',
    calls: v.calls,
    port: v.port === undefined ? undefined : parsePort(v.port),
    strictDescriptions: v['strict-descriptions'] === true,
    strictOpenObjects: v['strict-open-objects'] === true,
    strictConformance: v['strict-conformance'] === true,
    allowUnknown: v['allow-unknown'] === true,
    configFile: v['config-file'],
    failOn: v['fail-on'] === undefined ? undefined : parseFailOn(v['fail-on']),
    json: v.json === true,
    format: v.format,
    verbose: v.verbose === true,
    reports: v.report ?? [],
    force: v.force === true,
    tools: v.tool ?? [],
    items: v.item ?? [],
    all: v.all === true,
    reason: v.reason,
    updateLock: v['update-lock'] === true,
    server: v.server,
    help: v.help === true,
  };
}

function parseFailOn(text: string): 'error' | 'warning' | 'info' {
  if (text === 'error' || text === 'warning' || text === 'info') return text;
  throw new UsageError(`--fail-on must be one of error, warning, info, got "${text}"`);
}

/** `--timeout SECONDS`: a positive number of seconds, at most an hour. */
function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0 || seconds > 3600)
    throw new UsageError(`--timeout must be a number of seconds above 0 and at most 3600, got "${text}"`);
  return Math.round(seconds * 1000);
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535)
    throw new UsageError(`--port must be a port number (0-65535), got "${text}"`);
  return n;
}

/** What judging and reporting take, the same for check and diff. */
export const JUDGE_OPTIONS = [
  'calls',
  'strict-descriptions',
  'strict-open-objects',
  'strict-conformance',
  'allow-unknown',
  'config-file',
  'fail-on',
  'json',
  'format',
  'verbose',
  'report',
] as const;

export const SOURCE_OPTIONS = ['url', 'header', 'manifest', 'timeout'] as const;
/** A client configuration in place of one source (pin and check). */
export const CONFIG_OPTIONS = ['config', 'input', 'offline'] as const;

/** `--input` and `--offline` (and for pin, `--server`) mean something only with `--config`. */
export function assertConfigOptions(args: GateArgs, serverToo: boolean): void {
  if (args.config !== undefined) return;
  const given = [
    args.inputs.length > 0 ? '--input' : '',
    args.offline ? '--offline' : '',
    serverToo && args.server !== undefined ? '--server' : '',
  ].filter(Boolean);
  if (given.length > 0)
    throw new UsageError(`${given.join(', ')} go${given.length === 1 ? 'es' : ''} with --config FILE`);
}
