/** The tiers a Warden caller can get, lowest first. The doctor keeps its own copy: it is a client. */
export const TIERS = ['anonymous', 'candidate', 'member'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

export type { HttpTarget, Reference, StdioTarget, Target } from '@warden-mcp/gate/connect';
import type { Reference } from '@warden-mcp/gate/connect';

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

/** One skill the server serves this caller (MCP Skills extension), as the doctor verified it. */
export interface SkillReport {
  /** The frontmatter's name (else the URI). */
  name: string;
  /** Its `SKILL.md` URI; null for an entry too broken to name one. */
  uri: string | null;
  /** The digest skills/list gives for `SKILL.md`; null when the skill lists no files (dynamic). */
  digest: string | null;
  /** How many files the entry lists; null for a dynamic skill. */
  files: number | null;
  /** `SKILL.md` was read and matched its listed size, digest and frontmatter. */
  verified: boolean;
  /** Why it did not verify, in one line; null otherwise. */
  problem: string | null;
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
  /** The skills served to this caller, each verified; null when the server does not declare the extension. */
  skills: SkillReport[] | null;
  /** Tools the expected tier would add to what is served now. */
  would_add: string[];
  references: Reference[];
  checks: Check[];
  not_checked: string[];
  fix: string | null;
}
