import {
  DEFAULT_TIMEOUT_MS,
  diagnoseAll,
  exitCodeOf,
  isTier,
  maskTokens,
  type Tier,
} from '../../doctor/index.ts';
import { parse } from '../common.ts';
import { EXIT, UsageError, type CliIo } from '../io.ts';
import { renderHuman, styleFor } from './render-human.ts';
import { renderJson } from './render-json.ts';
import { targetFromUrl, targetsFromConfig } from './targets.ts';

export const DOCTOR_HELP = `Usage:
  warden doctor URL [--token T | --header "Name: value"]… [--expect TIER] [--json]
  warden doctor --config FILE [--server NAME]… [--input ID=VALUE]… [--expect TIER] [--json]

Connects to each server as its client would, lists the tools for real, asks Warden's
/diagnose and /tiers beside MCP, and says which tier the caller really got and why.

Options:
  --token T           send "Authorization: Bearer T"
  --header "N: v"     send this header (repeatable)
  --config FILE       a client configuration: Claude Desktop, Claude Code .mcp.json,
                      VS Code .vscode/mcp.json, Cursor .cursor/mcp.json
  --server NAME       only this server of the configuration (repeatable)
  --input ID=VALUE    the value VS Code would prompt for as \${input:ID} (repeatable)
  --expect TIER       anonymous, candidate or member: below it is a failure
  --timeout SECONDS   per network step (default ${DEFAULT_TIMEOUT_MS / 1000})
  --json              machine-readable: { "servers": [ { name, url, tier, tools, total, reasons, ok, … } ] }

Exit codes:
  0  every server healthy and at or above --expect
  1  reachable but below the expected tier, a token rejected, a credential that could
     not be filled in, or tools/list contradicting the diagnosis
  2  unreachable, not MCP, an entry that cannot be run, or a usage error
`;

const OPTIONS = {
  token: { type: 'string' },
  header: { type: 'string', multiple: true },
  config: { type: 'string' },
  server: { type: 'string', multiple: true },
  input: { type: 'string', multiple: true },
  expect: { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `warden doctor`: a thin shell over the doctor library; returns the documented exit code. */
export async function runDoctor(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) {
    io.stdout(DOCTOR_HELP);
    return EXIT.ok;
  }
  const expect = parseExpect(values.expect);
  const timeoutMs = parseTimeout(values.timeout);
  const targets = values.config
    ? (() => {
        if (positionals.length > 0 || values.token !== undefined || values.header)
          throw new UsageError('give either URL [--token|--header] or --config FILE, not both');
        return targetsFromConfig(values.config, values.server ?? [], values.input ?? [], io.env);
      })()
    : (() => {
        if (positionals.length !== 1)
          throw new UsageError(`one URL or --config FILE is needed\n\n${DOCTOR_HELP}`);
        if (values.server || values.input) throw new UsageError('--server and --input go with --config');
        return [targetFromUrl(positionals[0]!, values.token, values.header ?? [])];
      })();
  const reports = await diagnoseAll(targets, { expect, timeoutMs });
  const code = exitCodeOf(reports);
  const rendered = values.json
    ? renderJson(reports, code)
    : renderHuman(reports, code, styleFor(io.isTty, io.env));
  io.stdout(maskTokens(rendered));
  return code;
}

function parseExpect(raw: string | undefined): Tier | null {
  if (raw === undefined) return null;
  if (!isTier(raw)) throw new UsageError(`--expect must be anonymous, candidate or member, not "${raw}"`);
  return raw;
}

function parseTimeout(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--timeout must be a number of seconds`);
  return Math.round(seconds * 1000);
}
