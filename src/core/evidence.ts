import { refusal, type Refusal } from './refusal.ts';

export const EVIDENCE_ORIGINS = ['manual', 'commit', 'document', 'calendar'] as const;
export type Origin = (typeof EVIDENCE_ORIGINS)[number];
type ArtifactOrigin = Exclude<Origin, 'manual'>;

/** URL schemes each origin's references may use: anything else (javascript:, file:, data:, …) points nowhere checkable. */
export const ARTIFACT_SCHEMES: Readonly<Record<ArtifactOrigin, readonly string[]>> = {
  commit: ['https:', 'http:'],
  document: ['https:', 'http:'],
  calendar: ['https:', 'http:', 'webcal:', 'webcals:'],
};

/** The form of reference each artifact origin needs, as told to a caller that got it wrong. */
export const ARTIFACT_FORMS: Readonly<Record<ArtifactOrigin, string>> = {
  commit:
    'the repository URL and the full commit hash (40 hex digits, or 64 for SHA-256), as https://host/owner/repo@<hash> or https://host/owner/repo/commit/<hash>',
  document: 'an https: or http: URL of the document, e.g. https://docs.example.org/design/42',
  calendar:
    'an https:, http:, webcal: or webcals: URL of the event, an iCalendar UID (local-part@domain.tld, letters, digits and . _ % + = -), urn:uuid:<uuid>, or a calendar provider’s event id (16 to 255 letters, digits, _ or -, with at least one digit)',
};

/** Characters no reference may hold: controls, format (bidi, zero-width, tags), private use, unassigned, separators, whitespace. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Z}\s]/u;
const HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
const COMMIT = /^(.+?)(?:@|\/-\/commit\/|\/commit\/)([0-9a-f]+)$/i;
const UID = /^([A-Za-z0-9._%+=-]{1,200})@([^@]+)$/;
const URN_UUID = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPAQUE = /^(?=.*\d)[A-Za-z0-9_-]{16,255}$/;

/** A reference parsed for its origin: the canonical text to store, or what is wrong with it. */
export type ParsedArtifact = { ok: true; ref: string } | { ok: false; problem: string };

/**
 * Parses an artifact reference by what its origin can point at, with the WHATWG URL
 * parser for URLs and an allow-list of schemes per origin. The stored form is the
 * parser's own serialisation (ASCII: host names in punycode, the rest
 * percent-encoded), so what is kept is exactly what was understood.
 */
export function parseArtifactRef(origin: ArtifactOrigin, ref: string): ParsedArtifact {
  const bad = FORBIDDEN.exec(ref);
  if (bad) {
    const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return { ok: false, problem: `it contains U+${cp}, a space, control or invisible character` };
  }
  switch (origin) {
    case 'commit':
      return parseCommit(ref);
    case 'document':
      return parseUrl(ref, origin);
    case 'calendar':
      return parseCalendar(ref);
  }
}

function parseCommit(ref: string): ParsedArtifact {
  if (HASH.test(ref)) return { ok: false, problem: 'a hash alone does not say which repository it is in' };
  const m = COMMIT.exec(ref);
  if (!m) return { ok: false, problem: 'it is not a repository URL followed by a commit hash' };
  const hash = m[2] as string;
  if (!HASH.test(hash))
    return { ok: false, problem: `"${hash}" is not a full commit hash (40 or 64 hex digits)` };
  const repo = parseUrl(m[1] as string, 'commit');
  if (!repo.ok) return repo;
  const path = new URL(repo.ref).pathname;
  if (!/[^/]/.test(path)) return { ok: false, problem: 'the URL names a host but no repository on it' };
  return { ok: true, ref: `${repo.ref.replace(/\/+$/, '')}@${hash.toLowerCase()}` };
}

function parseCalendar(ref: string): ParsedArtifact {
  if (URN_UUID.test(ref)) return { ok: true, ref: ref.toLowerCase() };
  if (OPAQUE.test(ref)) return { ok: true, ref };
  const uid = UID.exec(ref);
  if (uid && !/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
    const host = hostOf(uid[2] as string);
    if (!host) return { ok: false, problem: `"${uid[2]}" is not a domain name` };
    return { ok: true, ref: `${uid[1]}@${host}` };
  }
  return parseUrl(ref, 'calendar');
}

function parseUrl(ref: string, origin: ArtifactOrigin): ParsedArtifact {
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    return { ok: false, problem: 'it is not a URL' };
  }
  const allowed = ARTIFACT_SCHEMES[origin];
  if (!allowed.includes(url.protocol)) {
    return { ok: false, problem: `a ${origin} reference uses ${allowed.join(' ')}, not ${url.protocol}` };
  }
  if (!url.hostname) return { ok: false, problem: 'the URL names no host' };
  if (url.username || url.password) return { ok: false, problem: 'the URL carries a user name or password' };
  return { ok: true, ref: url.href };
}

/** A domain name as the URL parser understands it (punycode), with at least one dot; null otherwise. */
function hostOf(domain: string): string | null {
  try {
    const u = new URL(`https://${domain}/`);
    if (u.host !== u.hostname || u.username || u.pathname !== '/' || !u.hostname.includes('.')) return null;
    if (/^[\d.]+$/.test(u.hostname) || u.hostname.startsWith('[')) return null;
    return u.hostname;
  } catch {
    return null;
  }
}

/** What checkArtifact decided: a refusal, or the reference to store (null for a self-report). */
export type ArtifactCheck = { ok: false; refusal: Refusal } | { ok: true; ref: string | null };

/**
 * Decides whether a claim carries what it says it carries. A claim presented as
 * coming from an artifact without a pointer to it is self-report in costume, and
 * the refusal says so, not only which rule failed; a malformed pointer is refused
 * with the form its origin takes.
 */
export function checkArtifact(origin: Origin, ref: string | null | undefined): ArtifactCheck {
  const value = ref?.trim() ? ref.trim() : null;
  if (origin === 'manual') {
    if (value === null) return { ok: true, ref: null };
    return refused(
      'invalid_value',
      'A manual claim is a self-report and carries no artifact reference; this one has one, so it is not manual.',
      'File it with the origin the artifact has (commit, document or calendar), or drop artifact_ref to file a self-report.',
    );
  }
  if (value === null) {
    return refused(
      'claim_without_artifact',
      `This claim says it comes from a ${origin}, but gives no reference to that ${origin}. A claim presented as coming from an artifact without a pointer to it is self-report in costume: nobody could check it.`,
      `File it again with artifact_ref set to ${ARTIFACT_FORMS[origin]}, or file it with origin "manual" as what it is, a self-report.`,
    );
  }
  const parsed = parseArtifactRef(origin, value);
  if (!parsed.ok) {
    return refused(
      'artifact_ref_malformed',
      `This artifact_ref is not of the form a ${origin} reference takes (${parsed.problem}), so it points at nothing anyone could check.`,
      `Send artifact_ref as ${ARTIFACT_FORMS[origin]}, or file the claim with origin "manual".`,
    );
  }
  return { ok: true, ref: parsed.ref };
}

function refused(code: Refusal['code'], reason: string, next: string): ArtifactCheck {
  return { ok: false, refusal: refusal(code, reason, next) };
}
