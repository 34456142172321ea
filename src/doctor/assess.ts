import { crossCheck, tierServed } from './cross-check.ts';
import type { Diagnosis } from './endpoints.ts';
import type { Evidence } from './evidence.ts';
import type { Failure } from './failure.ts';
import { anonymousFix, gapFix, rejectionFix } from './fixes.ts';
import {
  anonymousReason,
  credentialField,
  missingReason,
  missingScopes,
  referenceWords,
  rejectionReason,
} from './reasons.ts';
import type { SessionFacts } from './session.ts';
import { tierRank, type Check, type ServerReport, type Target, type Tier } from './types.ts';

/** Turns what a probe gathered into a verdict: checks, reasons in plain words, the fix. Pure. */
export function assess(e: Evidence, expect: Tier | null): ServerReport {
  const report = emptyReport(e.target, expect);
  report.checks.push(...referenceChecks(e.target));
  if (e.target.invalid) return invalidEntry(report, e.target.invalid);
  if (!e.session.ok) return failed(report, e, e.session.failure);
  const facts = e.session.facts;
  describeSession(report, e, facts);
  const warden = e.catalog !== null || e.diagnose.kind !== 'absent' || facts.serverInfo?.name === 'warden';
  if (!warden) return otherServer(report, e);
  report.server = 'warden';
  report.total = e.catalog?.total ?? null;
  if (e.diagnose.kind === 'rejected') {
    report.checks.push({ id: 'cross-check', ok: false, message: 'CROSS-CHECK FAILED' });
    return finish(report, 'mismatch', [
      `tools/list answered with ${facts.toolNames.length} tools, but the diagnosis refused the same credential: ${rejectionReason(e.diagnose.rejection)}`,
    ]);
  }
  if (e.diagnose.kind === 'absent') {
    report.not_checked.push(`why this tier: the server did not diagnose this caller (${e.diagnose.why})`);
    report.tier = tierServed(facts.toolNames, e.catalog);
    return finish(report, expectMet(report.tier, expect) ? 'healthy' : 'below_expected', []);
  }
  return wardenVerdict(report, e, facts, e.diagnose.diagnosis);
}

function wardenVerdict(report: ServerReport, e: Evidence, facts: SessionFacts, d: Diagnosis): ServerReport {
  const claimedBy = e.diagnosisSource === 'get-mandate' ? 'get_mandate' : '/diagnose';
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
      ? [anonymousReason(e.target, report.references)]
      : [
          `a valid token${d.token ? ` ("${d.token.label}")` : ''} of ${d.principal?.status ?? d.tier} ${d.principal?.handle ?? ''}`.trim(),
          ...missing.map((m) => missingReason(m, d.tier)),
        ];
  if (d.tier !== 'anonymous' && missing.length === 0 && d.tools && problems.length === 0)
    reasons.push(`every tool an agent of the ${d.tier} tier can see is served`);
  const tierOk = expectMet(report.tier, report.expect);
  report.checks.push({
    id: 'tier',
    ok: tierOk && problems.length === 0 && !droppedCredential(e.target),
    message: `tier: ${report.tier} — ${facts.toolNames.length} of ${report.total ?? '?'} tools${report.expect && !tierOk ? ` (expected ${report.expect})` : ''}`,
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
  report.checks.push({ id: 'cross-check', ok: true, message: `tools/list agrees with ${claimedBy}` });
  addWouldAdd(report, e, facts);
  report.fix =
    d.tier === 'anonymous' ? anonymousFix(e.target, report.references) : gapFix(d, missing, report.expect);
  if (droppedCredential(e.target)) return finish(report, 'unresolved', reasons);
  return finish(report, tierOk ? 'healthy' : 'below_expected', reasons);
}

function addWouldAdd(report: ServerReport, e: Evidence, facts: SessionFacts): void {
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

function failed(report: ServerReport, e: Evidence, f: Failure): ServerReport {
  const where = e.target.kind === 'http' ? e.target.url : commandLine(e.target);
  if (e.diagnose.kind === 'rejected' || f.kind === 'unauthorized') {
    report.checks.push({ id: 'reachable', ok: true, message: `reachable: ${where}` });
    report.server = e.catalog || e.diagnose.kind === 'rejected' ? 'warden' : 'other';
    report.total = e.catalog?.total ?? null;
    report.protected_resource_metadata = e.protectedResourceMetadata;
    if (e.diagnose.kind === 'rejected') {
      const reason = rejectionReason(e.diagnose.rejection);
      const how = e.target.kind === 'http' ? 'HTTP 401' : 'the process exited';
      report.checks.push({ id: 'token', ok: false, message: `token rejected (${how}): ${reason}` });
      report.fix = rejectionFix(e.diagnose.rejection, e.target);
      return finish(report, 'rejected', [reason]);
    }
    const reason = `the server requires authorization (${f.message}) and refused ${
      Object.keys(e.target.kind === 'http' ? e.target.headers : {}).length
        ? 'the headers sent'
        : 'a request without credentials'
    }`;
    report.checks.push({ id: 'token', ok: false, message: reason });
    addMetadataCheck(report);
    report.fix = 'give the credential this server expects (see its protected-resource metadata)';
    return finish(report, 'rejected', [reason]);
  }
  if (f.kind === 'unreachable' || f.kind === 'timeout') {
    const what =
      e.target.kind === 'http'
        ? `unreachable: ${where} (${f.message})`
        : `could not start: ${where} (${f.message})`;
    report.checks.push({ id: 'reachable', ok: false, message: what });
    report.fix =
      e.target.kind === 'http'
        ? 'check that the server is running and that the URL (host, port, path) is right'
        : 'check that the command exists and runs from this directory';
    return finish(report, 'unreachable', [what]);
  }
  const stderr = e.stderr.trim().split('\n').slice(-3).join(' | ');
  const what = `${where} did not speak MCP: ${f.message}${stderr ? ` (stderr: ${stderr})` : ''}`;
  report.checks.push({ id: 'mcp-handshake', ok: false, message: what });
  report.fix =
    e.target.kind === 'http'
      ? 'check the URL: Warden serves MCP at /mcp'
      : 'run the command by hand and read what it prints';
  return finish(report, 'not_mcp', [what]);
}

function describeSession(report: ServerReport, e: Evidence, facts: SessionFacts): void {
  report.protocol = facts.protocol;
  report.server_info = facts.serverInfo;
  report.capabilities = facts.capabilities;
  report.tool_names = facts.toolNames;
  report.tools = facts.toolNames.length;
  report.protected_resource_metadata = e.protectedResourceMetadata;
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

function addMetadataCheck(report: ServerReport): void {
  report.checks.push({
    id: 'protected-resource-metadata',
    ok: null,
    message: `protected-resource metadata (RFC 9728): ${report.protected_resource_metadata ? 'present' : 'absent'}`,
  });
}

function invalidEntry(report: ServerReport, why: string): ServerReport {
  report.checks.push({ id: 'entry', ok: false, message: `this entry cannot be run: ${why}` });
  report.fix = 'correct the entry in the configuration file';
  return finish(report, 'invalid_entry', [`this entry cannot be run: ${why}`]);
}

function referenceChecks(target: Target): Check[] {
  return target.references.map((r) => ({
    id: 'reference',
    ok: r.resolved ? null : false,
    message: `${r.field} uses ${referenceWords(r)}`,
  }));
}

function droppedCredential(target: Target): boolean {
  return target.dropped.includes(credentialField(target));
}

function expectMet(tier: Tier | null, expect: Tier | null): boolean {
  if (!expect) return true;
  return tier !== null && tierRank(tier) >= tierRank(expect);
}

function finish(report: ServerReport, status: ServerReport['status'], reasons: string[]): ServerReport {
  report.status = status;
  report.ok = status === 'healthy';
  report.reasons.push(...reasons);
  return report;
}

export function commandLine(t: Target): string {
  return t.kind === 'stdio' ? [t.command, ...t.args].join(' ') : t.url;
}

function emptyReport(target: Target, expect: Tier | null): ServerReport {
  return {
    name: target.name,
    url: target.kind === 'http' ? target.url : null,
    transport: target.kind === 'http' ? target.transport : 'stdio',
    command: target.kind === 'stdio' ? commandLine(target) : null,
    source: target.source,
    server: null,
    tier: null,
    tools: null,
    total: null,
    reasons: [],
    ok: false,
    status: 'not_mcp',
    expect,
    protocol: null,
    server_info: null,
    capabilities: null,
    protected_resource_metadata: null,
    tool_names: [],
    would_add: [],
    references: target.references,
    checks: [],
    not_checked: [],
    fix: null,
  };
}
