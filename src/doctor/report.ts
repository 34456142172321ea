import { isCredentialField, referenceWords } from './reasons.ts';
import { tierRank, type Check, type ServerReport, type Status, type Target, type Tier } from './types.ts';

/** A report before any check: every field present, so the JSON shape never depends on the path taken. */
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
    oauth: null,
    tool_names: [],
    skills: null,
    would_add: [],
    references: target.references,
    checks: [],
    not_checked: [],
    fix: null,
  };
}

/** Seals the status; `ok` is derived from it so the two can never disagree. */
export function finish(report: ServerReport, status: Status, reasons: string[]): ServerReport {
  report.status = status;
  report.ok = status === 'healthy';
  report.reasons.push(...reasons);
  return report;
}

/** Without --expect every tier is accepted; a tier that cannot be computed never meets one. */
export function expectMet(tier: Tier | null, expect: Tier | null): boolean {
  if (!expect) return true;
  return tier !== null && tierRank(tier) >= tierRank(expect);
}

/** How a target is shown: its URL, or its command line. */
export function commandLine(t: Target): string {
  return t.kind === 'stdio' ? [t.command, ...t.args].join(' ') : t.url;
}

/** One line per `${…}` reference, resolved or not, so none is dropped silently. */
export function referenceChecks(target: Target): Check[] {
  return target.references.map((r) => ({
    id: 'reference',
    ok: r.resolved ? null : false,
    message: `${r.field} uses ${referenceWords(r)}`,
  }));
}

/** RFC 9728 metadata is how a client learns how to authenticate; say whether it exists. */
export function addMetadataCheck(report: ServerReport): void {
  report.checks.push({
    id: 'protected-resource-metadata',
    ok: null,
    message: `protected-resource metadata (RFC 9728): ${report.protected_resource_metadata ? 'present' : 'absent'}`,
  });
}

/** Whether the credential itself was left out because its reference could not be filled in. */
export function droppedCredential(target: Target): boolean {
  return target.dropped.some((field) => isCredentialField(target, field));
}
