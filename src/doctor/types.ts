/** The tiers a Warden caller can get, lowest first. The doctor keeps its own copy: it is a client. */
export const TIERS = ['anonymous', 'candidate', 'member'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

/**
 * A `${…}` reference found in a configuration value. Reported whether or not it
 * resolved: a value the client fills in at start-up is exactly where a token goes missing.
 */
export interface Reference {
  /** Where it was found, e.g. `headers.Authorization` or `env.WARDEN_TOKEN`. */
  field: string;
  /** The reference as written, e.g. `${input:warden-token}`. */
  text: string;
  kind: 'input' | 'env' | 'variable';
  name: string;
  resolved: boolean;
  /** This client does not fill in references of this form: it sends the text as written. */
  literal: boolean;
  /** For VS Code inputs: the prompt the editor shows. */
  description?: string;
  /** `${NAME:-default}` with NAME unset: the value is the configuration's default, not the environment's. */
  defaulted?: boolean;
}

interface TargetBase {
  name: string;
  /** Where the entry came from (a configuration format), or null for a URL on the command line. */
  source: string | null;
  references: Reference[];
  /** Fields left out because a reference in them could not be resolved. */
  dropped: string[];
  /** Set when the entry cannot be run at all (no url nor command, an unresolved url…). */
  invalid?: string;
}

/** An HTTP endpoint: the doctor connects to it exactly as the client would (same URL, same headers). */
export interface HttpTarget extends TargetBase {
  kind: 'http';
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

/** A local command speaking MCP on stdio: the doctor runs it as the client would. */
export interface StdioTarget extends TargetBase {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export type Target = HttpTarget | StdioTarget;

/** How a server fared; each maps to one documented exit code. */
export type Status =
  | 'healthy'
  | 'below_expected'
  | 'rejected'
  | 'mismatch'
  | 'unresolved'
  | 'unreachable'
  | 'not_mcp'
  | 'invalid_entry';

/** One line of the diagnosis: pass, fail, or information (null). */
export interface Check {
  /** Stable kebab-case id, never renamed once shipped. */
  id: string;
  ok: boolean | null;
  message: string;
  /** Plain-word explanations printed under the line. */
  details?: string[];
}

/** The doctor's verdict on one server: data, rendered by the CLI as text or JSON. */
export interface ServerReport {
  name: string;
  url: string | null;
  transport: 'http' | 'sse' | 'stdio';
  command: string | null;
  source: string | null;
  server: 'warden' | 'other' | null;
  tier: Tier | null;
  /** Tools that tools/list really returned (null when it could not run). */
  tools: number | null;
  /** Tools in the server's catalog, when the server publishes it. */
  total: number | null;
  reasons: string[];
  ok: boolean;
  status: Status;
  expect: Tier | null;
  protocol: string | null;
  server_info: { name: string; version: string } | null;
  capabilities: string[] | null;
  protected_resource_metadata: boolean | null;
  /** Where a client without a header signs in, when the endpoint is its own OAuth authorization server. */
  oauth: { authorization_servers: string[]; scopes: string[] } | null;
  tool_names: string[];
  /** Tools the expected tier would add to what is served now. */
  would_add: string[];
  references: Reference[];
  checks: Check[];
  not_checked: string[];
  fix: string | null;
}
