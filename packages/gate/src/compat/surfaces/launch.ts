import { jsonHash } from '../hash.ts';
import type { Finding } from '../types.ts';
import { combineVerdict } from '../verdicts.ts';
import type { ItemReport } from './report.ts';

/**
 * How a configured server is started or reached, as its client configuration writes it. No
 * environment and no header values: what it holds may be committed and printed.
 */
export interface Launch {
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[];
  url?: string;
  /** The npm package an `npx`-style command runs: as requested, and the version that resolved. */
  package?: { name: string; requested: string | null; version: string | null };
}

/** Why a package's resolved version is not known (printed beside the pin advice). */
export interface LaunchContext {
  unresolved?: string;
}

const EXACT = /^[v=]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Whether a requested version names exactly one release (`1.2.3`), not a tag or a range. */
export function isExactVersion(requested: string | null): boolean {
  return requested !== null && EXACT.test(requested);
}

/** The launch as one line: the command line, or the URL. */
export function launchLine(launch: Launch): string {
  if (launch.transport === 'http') return launch.url ?? '';
  return [launch.command ?? '', ...(launch.args ?? [])].join(' ');
}

/** The command line with the package's version left out, so a new version alone is not a new launch. */
function shape(launch: Launch): string {
  const pkg = launch.package;
  if (!pkg || pkg.requested === null) return launchLine(launch);
  const spec = `${pkg.name}@${pkg.requested}`;
  const args = (launch.args ?? []).map((a) => (a.endsWith(spec) ? a.slice(0, -spec.length) + pkg.name : a));
  return launchLine({ ...launch, args });
}

/**
 * The pinned launch against the configured one: a different command, arguments or URL may be
 * another server altogether (unknown); a new version of the same package is news, judged by what
 * it serves. A package started at a tag, a range or no version at all can change under the
 * configuration at any start, so it is unknown whether or not anything changed yet.
 */
export function compareLaunch(
  before: Launch | undefined,
  after: Launch,
  context: LaunchContext = {},
): ItemReport {
  const findings: Finding[] = [];
  if (before && shape(before) !== shape(after))
    findings.push({
      rule: 'launch-changed',
      verdict: 'unknown',
      pointer: '',
      args: { old: launchLine(before), new: launchLine(after) },
    });
  const was = before?.package;
  const now = after.package;
  if (was && now && was.name === now.name) {
    const known = was.version !== null && now.version !== null;
    const [old, next] = known ? [was.version, now.version] : [was.requested, now.requested];
    if (old !== next)
      findings.push({
        rule: 'launch-package-version-changed',
        verdict: 'compatible',
        pointer: '/package/version',
        args: { package: now.name, old, new: next },
      });
  }
  if (now && !isExactVersion(now.requested)) {
    // Unresolved now, the version pinned before is the best advice there is.
    const pinned = was?.name === now.name ? was.version : null;
    const finding: Finding = {
      rule: 'launch-unpinned',
      verdict: 'unknown',
      pointer: '/package/requested',
      args: {
        package: now.name,
        requested: now.requested ?? 'no version',
        pin: `${now.name}@${now.version ?? pinned ?? 'VERSION'}`,
      },
    };
    if (now.version === null && context.unresolved)
      finding.reason = pinned === null ? context.unresolved : `the version pinned; ${context.unresolved}`;
    findings.push(finding);
  }
  const oldHash = before ? jsonHash(before) : null;
  const newHash = jsonHash(after);
  const item = { kind: 'launch' as const, name: '(launch)', oldHash, newHash, findings };
  if (findings.length === 0) return { ...item, verdict: 'identical', change: 'unchanged' };
  const change = oldHash === null ? 'added' : oldHash === newHash ? 'unchanged' : 'changed';
  return { ...item, verdict: combineVerdict(findings), change };
}
