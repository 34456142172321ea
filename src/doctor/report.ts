import { credentialField, referenceWords } from './reasons.ts';
import { tierRank, type Check, type ServerReport, type Status, type Target, type Tier } from './types.ts';

export function emptyReport(target: Target, expect: Tier | null): ServerReport {
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

export function finish(report: ServerReport, status: Status, reasons: string[]): ServerReport {
  report.status = status;
  report.ok = status === 'healthy';
  report.reasons.push(...reasons);
  return report;
}

export function expectMet(tier: Tier | null, expect: Tier | null): boolean {
  if (!expect) return true;
  return tier !== null && tierRank(tier) >= tierRank(expect);
}

export function commandLine(t: Target): string {
  return t.kind === 'stdio' ? [t.command, ...t.args].join(' ') : t.url;
}

export function referenceChecks(target: Target): Check[] {
  return target.references.map((r) => ({
    id: 'reference',
    ok: r.resolved ? null : false,
    message: `${r.field} uses ${referenceWords(r)}`,
  }));
}

export function addMetadataCheck(report: ServerReport): void {
  report.checks.push({
    id: 'protected-resource-metadata',
    ok: null,
    message: `protected-resource metadata (RFC 9728): ${report.protected_resource_metadata ? 'present' : 'absent'}`,
  });
}

export function droppedCredential(target: Target): boolean {
  return target.dropped.includes(credentialField(target));
}
