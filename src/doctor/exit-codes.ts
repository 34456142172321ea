import type { ServerReport, Status } from './types.ts';

/**
 * The documented exit codes: 0 every server healthy and at or above --expect; 1 a
 * server reachable but below the expected tier, a token rejected, a credential that
 * could not be filled in, or served tools that contradict the diagnosis; 2 a server
 * unreachable, not MCP, or an entry that cannot be run. The worst server wins.
 */
const EXIT_CODE: Readonly<Record<Status, 0 | 1 | 2>> = {
  healthy: 0,
  below_expected: 1,
  rejected: 1,
  mismatch: 1,
  unresolved: 1,
  unreachable: 2,
  not_mcp: 2,
  invalid_entry: 2,
};

export function exitCodeOf(reports: readonly ServerReport[]): 0 | 1 | 2 {
  return reports.reduce<0 | 1 | 2>((worst, r) => Math.max(worst, EXIT_CODE[r.status]) as 0 | 1 | 2, 0);
}
