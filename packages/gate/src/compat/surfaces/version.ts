import type { Finding, Verdict } from '../types.ts';
import type { ServerSnapshot } from './snapshot.ts';

/**
 * Whether the version a server announces (serverInfo.version) moves as far as what it serves,
 * read as semantic versioning, as cargo-semver-checks reads a crate's: a breaking change needs a
 * major bump (from 1.0.0 on), a minor bump under 0.y.z, and any bump under 0.0.z, where every
 * release may break.
 *
 * server-version-understated is compatible with the level warning, not breaking: it only ever
 * stands beside a breaking change, which already fails the run, and a consumer pinning someone
 * else's server cannot fix the upstream's number: a breaking verdict would make them accept
 * the same upgrade twice. A server's author who wants the number held to the changes raises
 * the rule to an error in the configuration.
 */

/** A plain semantic version's three numbers. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
}

/** `MAJOR.MINOR.PATCH`, an optional leading `v` and build metadata; a pre-release is not plain. */
const PLAIN = /^v?(\d{1,15})\.(\d{1,15})\.(\d{1,15})(?:\+[0-9A-Za-z.-]+)?$/u;

export function parseSemver(version: string): SemVer | null {
  const m = version.length <= 256 ? PLAIN.exec(version) : null;
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

type Bump = 'major' | 'minor' | 'patch' | 'none' | 'downgrade';

/** How far the version moved from `a` to `b`. */
function bumpOf(a: SemVer, b: SemVer): Bump {
  for (const part of ['major', 'minor', 'patch'] as const) {
    if (b[part] > a[part]) return part;
    if (b[part] < a[part]) return 'downgrade';
  }
  return 'none';
}

/** The smallest version after `v` that may break: 2.0.0 after 1.4.2, 0.5.0 after 0.4.2, 0.0.4 after 0.0.3. */
function nextBreaking(v: SemVer): string {
  if (v.major > 0) return `${v.major + 1}.0.0`;
  if (v.minor > 0) return `0.${v.minor + 1}.0`;
  return `0.0.${v.patch + 1}`;
}

/** Whether a move from `a` to `b` leaves room for a breaking change. */
function allowsBreaking(a: SemVer, b: SemVer): boolean {
  const bump = bumpOf(a, b);
  if (a.major > 0) return bump === 'major';
  if (a.minor > 0) return bump === 'major' || bump === 'minor';
  return bump !== 'none' && bump !== 'downgrade';
}

const SAID: Record<Bump, string> = {
  major: 'a major bump',
  minor: 'a minor bump',
  patch: 'a patch bump',
  none: 'no bump',
  downgrade: 'a downgrade',
};

/**
 * The findings on the announced version, given the worst verdict of everything else the
 * server serves. Only a version that moved is judged: an unchanged one was not announced anew
 * (a pull request diffed against main, a server that never updates its serverInfo), and saying
 * so on every upgrade of such a server would break the silence on compatible changes. Only a
 * breaking change needs more than a forward move, so only it is checked; a version that is not
 * plain semver is then named once instead.
 */
export function versionFindings(
  before: ServerSnapshot['identity'],
  after: ServerSnapshot['identity'],
  rest: Verdict,
): Finding[] {
  const old = before?.version ?? '';
  const now = after?.version ?? '';
  if (old === '' || now === '' || old === now || rest !== 'breaking') return [];
  const a = parseSemver(old);
  const b = parseSemver(now);
  if (!a || !b)
    return [
      {
        rule: 'server-version-not-semver',
        verdict: 'compatible',
        pointer: '/version',
        args: { old, new: now },
      },
    ];
  if (allowsBreaking(a, b)) return [];
  return [
    {
      rule: 'server-version-understated',
      verdict: 'compatible',
      pointer: '/version',
      args: { old, new: now, bump: SAID[bumpOf(a, b)], needed: `${nextBreaking(a)} or later` },
    },
  ];
}
