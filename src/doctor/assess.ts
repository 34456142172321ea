import { tierServed } from './cross-check.ts';
import type { Evidence } from './evidence.ts';
import { rejectionReason } from './reasons.ts';
import { addMetadataCheck, commandLine, emptyReport, expectMet, finish, referenceChecks } from './report.ts';
import type { ServedFacts } from './connection.ts';
import type { ServerReport, Tier } from './types.ts';
import { skillChecks } from './skills.ts';
import { failed } from './verdict-failed.ts';
import { wardenVerdict } from './verdict-warden.ts';

/** Turns what a probe gathered into a verdict: checks, reasons in plain words, the fix. Pure. */
export function assess(e: Evidence, expect: Tier | null): ServerReport {
  return withSkills(judge(e, expect));
}

function judge(e: Evidence, expect: Tier | null): ServerReport {
  const report = emptyReport(e.target, expect);
  report.checks.push(...referenceChecks(e.target));
  if (e.target.invalid) return invalidEntry(report, e.target.invalid);
  if (!e.mcp.ok) return failed(report, e, e.mcp.failure);
  const facts = e.mcp.facts;
  describeServed(report, e, facts);
  const warden = e.catalog !== null || e.diagnose.kind !== 'absent' || facts.serverInfo?.name === 'warden';
  if (!warden) return otherServer(report, e);
  report.server = 'warden';
  report.total = e.catalog?.total ?? null;
  if (e.diagnose.kind === 'rejected') {
    // tools/list accepted the credential that the diagnosis refused: the two paths disagree.
    const problem = `tools/list served ${facts.toolNames.length} tools, but /diagnose refused the same credential: ${rejectionReason(e.diagnose.rejection, e.target)}`;
    report.tier = tierServed(facts.toolNames, e.catalog);
    report.checks.push({ id: 'cross-check', ok: false, message: `CROSS-CHECK FAILED: ${problem}` });
    report.fix =
      'something between this client and the server treats requests differently (a proxy that rewrites the Authorization header on some paths?); fix that first';
    return finish(report, 'mismatch', [problem]);
  }
  if (e.diagnose.kind === 'absent') {
    // A Warden without /diagnose (older, or behind a gateway that hides it): the tier from the catalog only.
    report.tier = tierServed(facts.toolNames, e.catalog);
    const met = expectMet(report.tier, expect);
    const reason = `the server did not diagnose this caller (${e.diagnose.why}), so the tier is only the lowest whose catalog holds every served tool`;
    report.checks.push({
      id: 'tier',
      ok: met,
      message: `tier: at least ${report.tier ?? 'unknown'} — ${facts.toolNames.length} of ${report.total ?? '?'} tools`,
      details: [reason],
    });
    report.not_checked.push('why this tier: only /diagnose names the token, the principal and the mandate');
    return finish(report, met ? 'healthy' : 'below_expected', [reason]);
  }
  return wardenVerdict(report, e, facts, e.diagnose.diagnosis);
}

function describeServed(report: ServerReport, e: Evidence, facts: ServedFacts): void {
  report.protocol = facts.protocol;
  report.server_info = facts.serverInfo;
  report.capabilities = facts.capabilities;
  report.tool_names = facts.toolNames;
  report.tools = facts.toolNames.length;
  report.protected_resource_metadata = e.protectedResourceMetadata;
  report.oauth = e.oauth
    ? { authorization_servers: e.oauth.authorizationServers, scopes: e.oauth.scopes }
    : null;
  const where = e.target.kind === 'http' ? `reachable: ${e.target.url}` : `started: ${commandLine(e.target)}`;
  report.checks.push({ id: 'reachable', ok: true, message: where });
  const info = facts.serverInfo ? `${facts.serverInfo.name} ${facts.serverInfo.version}` : 'unnamed server';
  report.checks.push({
    id: 'mcp-handshake',
    ok: true,
    message: `MCP ${facts.protocol ?? 'revision unknown'}, server ${info}, capabilities: ${facts.capabilities.join(', ') || 'none'}`,
  });
  report.checks.push({
    id: 'tools-list',
    ok: true,
    message: `tools/list returned ${facts.toolNames.length} tools`,
  });
  // Only a server that declares the Skills extension gets a line about skills.
  if (facts.skills) {
    report.skills = facts.skills.skills;
    report.checks.push(...skillChecks(facts.skills));
  }
}

/**
 * A skill whose SKILL.md differs from its listing is one a host must not load: what is served
 * is not what the server says it serves, so a server otherwise healthy is a mismatch (exit 1).
 */
function withSkills(report: ServerReport): ServerReport {
  const bad = report.checks.filter((c) => (c.id === 'skill' || c.id === 'skills') && c.ok === false);
  if (bad.length === 0) return report;
  const reasons = bad.map((c) => [c.message, ...(c.details ?? [])].join(': '));
  if (report.status !== 'healthy') {
    report.reasons.push(...reasons);
    return report;
  }
  report.fix = bad.some((c) => c.id === 'skills')
    ? 'the server declares io.modelcontextprotocol/skills but cannot list its skills; fix its skills/list, or stop declaring the extension'
    : 'the server serves skill files other than the ones skills/list describes (digest, size or frontmatter); fix the server, or whatever caches or rewrites its responses, before a host loads the skill';
  return finish(report, 'mismatch', reasons);
}

function otherServer(report: ServerReport, e: Evidence): ServerReport {
  report.server = 'other';
  if (e.target.kind === 'http') addMetadataCheck(report);
  const reason = 'the tier cannot be computed: this server is not Warden (no /tiers or /diagnose beside it)';
  report.checks.push({ id: 'tier', ok: report.expect ? false : null, message: reason });
  report.not_checked.push(
    'tier and reasons: only a Warden server publishes its tier catalog and a diagnosis',
  );
  if (!report.expect) return finish(report, 'healthy', [reason]);
  report.fix = `--expect ${report.expect} can only be confirmed against Warden; drop it for this server`;
  return finish(report, 'below_expected', [reason, `--expect ${report.expect} cannot be confirmed here`]);
}

function invalidEntry(report: ServerReport, why: string): ServerReport {
  report.checks.push({ id: 'entry', ok: false, message: `this entry cannot be run: ${why}` });
  report.fix = 'correct the entry in the configuration file';
  return finish(report, 'invalid_entry', [`this entry cannot be run: ${why}`]);
}
