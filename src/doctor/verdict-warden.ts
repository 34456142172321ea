import { canCrossCheck, crossCheck, tierServed } from './cross-check.ts';
import type { Diagnosis } from './endpoints.ts';
import type { Evidence } from './evidence.ts';
import { anonymousFix, gapFix } from './fixes.ts';
import { anonymousReason, missingReason, missingScopes } from './reasons.ts';
import { droppedCredential, expectMet, finish } from './report.ts';
import type { ServedFacts } from './connection.ts';
import type { ServerReport, Tier } from './types.ts';

/**
 * The verdict on a Warden that answered both MCP and its diagnosis. The served tools
 * are checked against the claim first: when they disagree, the tier reported is the
 * one really served, and no reason built on the claim is offered as the explanation.
 */
export function wardenVerdict(
  report: ServerReport,
  e: Evidence,
  facts: ServedFacts,
  d: Diagnosis,
): ServerReport {
  const claimedBy =
    e.diagnosisSource === 'get-mandate'
      ? 'get_mandate'
      : e.diagnosisSource === 'club-info'
        ? 'club_info'
        : '/diagnose';
  report.total = report.total ?? d.total;
  if (e.target.kind === 'stdio') {
    report.not_checked.push(
      `/tiers and /diagnose: there is no HTTP beside stdio, so the tier and reasons come from the read-only tools ${
        e.diagnosisSource === 'get-mandate' ? 'club_info and get_mandate' : 'club_info'
      } served by the same process`,
    );
    if (report.total === null)
      report.not_checked.push(
        'the size of the catalog: only get_mandate (not served to this caller) or /tiers tell it',
      );
  }
  const problems = crossCheck(e.target, facts.toolNames, d, e.catalog, claimedBy);
  report.tier = problems.length > 0 ? (tierServed(facts.toolNames, e.catalog) ?? d.tier) : d.tier;
  const missing = missingScopes(d);
  const reasons =
    d.tier === 'anonymous'
      ? [anonymousReason(e.target, report.references, e.oauth ?? null)]
      : [
          d.token?.origin === 'oauth'
            ? `a valid OAuth connection of client ${d.token.client_id ?? '?'} ("${d.token.label}"), of ${d.principal?.status ?? d.tier} ${d.principal?.handle ?? ''}`.trim()
            : `a valid token${d.token ? ` ("${d.token.label}")` : ''} of ${d.principal?.status ?? d.tier} ${d.principal?.handle ?? ''}`.trim(),
          ...missing.map((m) => missingReason(m, d.tier)),
        ];
  if (d.tier !== 'anonymous' && missing.length === 0 && d.tools && problems.length === 0)
    reasons.push(`every tool an agent of the ${d.tier} tier can see is served`);
  const tierOk = expectMet(report.tier, report.expect);
  report.checks.push({
    id: 'tier',
    ok: tierOk && problems.length === 0 && !droppedCredential(e.target),
    message: `tier: ${report.tier} — ${facts.toolNames.length}${report.total === null ? '' : ` of ${report.total}`} tools${report.expect && !tierOk ? ` (expected ${report.expect})` : ''}`,
    details:
      problems.length > 0
        ? [`what tools/list served; ${claimedBy} claims ${d.tier}: ${reasons.join('; ')}`]
        : reasons,
  });
  if (problems.length > 0) {
    report.checks.push({
      id: 'cross-check',
      ok: false,
      message: `CROSS-CHECK FAILED: what tools/list served differs from what ${claimedBy} claims (${d.tier}); the doctor trusts what is served`,
      details: problems,
    });
    report.fix =
      'something between this client and the server treats requests differently (a proxy that drops the Authorization header on some paths?); fix that first';
    return finish(report, 'mismatch', [...problems, ...reasons]);
  }
  report.checks.push(
    canCrossCheck(d, e.catalog)
      ? { id: 'cross-check', ok: true, message: `tools/list agrees with ${claimedBy}` }
      : {
          id: 'cross-check',
          ok: null,
          message: `nothing to cross-check tools/list against: ${claimedBy} names the tier but not the tools`,
        },
  );
  addWouldAdd(report, e, facts);
  report.fix =
    d.tier === 'anonymous' ? anonymousFix(e.target, report.references) : gapFix(d, missing, report.expect);
  if (droppedCredential(e.target)) return finish(report, 'unresolved', reasons);
  return finish(report, tierOk ? 'healthy' : 'below_expected', reasons);
}

/** What the expected tier (or member, as a hint) would show beyond what is served now. */
function addWouldAdd(report: ServerReport, e: Evidence, facts: ServedFacts): void {
  const wanted: Tier = report.expect ?? 'member';
  const tools = e.catalog?.tiers[wanted]?.tools;
  if (!tools) {
    if (report.tier !== 'member')
      report.not_checked.push(
        `what the ${wanted} tier would add: the tool names per tier are published at /tiers over HTTP only`,
      );
    return;
  }
  const adds = tools.filter((n) => !facts.toolNames.includes(n));
  if (adds.length === 0) return;
  if (report.expect) report.would_add = adds;
  report.checks.push({
    id: 'expected-tier',
    ok: null,
    message: `${wanted} would show ${tools.length} tools, ${adds.length} more: ${adds.join(', ')}`,
  });
}
