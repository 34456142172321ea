import type { OAuthOffer } from './endpoints.ts';
import type { DiagnoseAnswer, TierCatalog } from './endpoints.ts';
import type { Failure } from '@warden-mcp/gate/connect';
import type { ServedFacts } from './connection.ts';
import type { Target } from './types.ts';

/**
 * Everything one probe gathered, before any judgement: what MCP really served, and
 * what the server says about itself (its catalog and its diagnosis of this caller).
 */
export interface Evidence {
  target: Target;
  mcp: { ok: true; facts: ServedFacts } | { ok: false; failure: Failure };
  /** The public tier catalog (GET /tiers); null where there is none (stdio, other servers). */
  catalog: TierCatalog | null;
  /** What the server says this caller gets: GET /diagnose, or get_mandate over stdio. */
  diagnose: DiagnoseAnswer;
  /** Whether RFC 9728 protected-resource metadata exists; null when not applicable (stdio). */
  protectedResourceMetadata: boolean | null;
  /** The authorization server and scopes that metadata offers, when the endpoint signs clients in through OAuth. */
  oauth?: OAuthOffer | null;
  /** What a stdio command wrote to stderr (its own words when it refuses to start). */
  stderr: string;
  /** Where the diagnosis came from, for the report. */
  diagnosisSource: 'diagnose-endpoint' | 'get-mandate' | 'club-info' | 'stderr' | null;
}
