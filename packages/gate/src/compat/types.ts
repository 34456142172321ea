import type { RuleId } from './rules.ts';

/** Any JSON value, as schemas, arguments and witnesses are. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A schema is an object or a boolean (true accepts everything, false nothing). */
export type Schema = JsonObject | boolean;

export type Verdict = 'identical' | 'compatible' | 'breaking' | 'unknown';

/**
 * How loudly a finding is reported, and whether it fails the run (`--fail-on`): a verdict says
 * what changed, a level what a team wants done about it. `off` findings are dropped.
 */
export type Level = 'error' | 'warning' | 'info' | 'off';

/**
 * `input`: the new schema must accept every value the old one accepted (callers send them).
 * `output`: the new schema must accept only values the old one accepted (callers receive them).
 */
export type Direction = 'input' | 'output';

export interface CompareOptions {
  /** Strict set semantics for open objects: undeclared properties may be sent with any value. */
  strictOpenObjects?: boolean;
  /** How many values to sample from the old schema to cross-check a compatible verdict. */
  samples?: number;
  /** Seed for the sampler, so a verdict can be reproduced. */
  seed?: number;
  /** Most pairs of subschemas the walk compares before it answers unknown (budget-exhausted). */
  budget?: number;
}

/** One classified change. Text is rendered from the rule table at the edge (see rules.ts). */
export interface Finding {
  /** One of the rule table's ids, so a misspelt rule does not compile where a finding is made. */
  rule: RuleId;
  verdict: Exclude<Verdict, 'identical'>;
  /** Tool name, set by compareManifests. */
  tool?: string;
  /** JSON Pointer into the new schema (or tool definition) where the change sits. */
  pointer: string;
  args: Record<string, Json>;
  /** An argument object the old schema accepts and the new one rejects (reversed for output). */
  witness?: Json;
  /** Why a finding that looked breaking is reported as unknown, or other detail. */
  reason?: string;
  /** Set by a team's configuration (policy/apply.ts); absent: the rule's default (levelOf). */
  level?: Exclude<Level, 'off'>;
  /** The configured exception that lowered this finding to info, and why it was granted. */
  exception?: { reason: string; expires: string };
}

export interface SchemaComparison {
  verdict: Verdict;
  findings: Finding[];
}
