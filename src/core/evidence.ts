import { refusal, type Refusal } from './refusal.ts';

export const EVIDENCE_ORIGINS = ['manual', 'commit', 'document', 'calendar'] as const;
export type Origin = (typeof EVIDENCE_ORIGINS)[number];

const SHA = /^[0-9a-f]{7,40}$/i;
/** An iCalendar UID with its domain (…@example.org), or an opaque provider id of 16+ characters with a digit. */
const CALENDAR_UID = /^[^\s@]{1,200}@[^\s@]+\.[^\s@]+$/;
const CALENDAR_OPAQUE = /^(?=.*\d)[A-Za-z0-9_-]{16,255}$/;

/** The form of reference each artifact origin needs, as told to a caller that got it wrong. */
export const ARTIFACT_FORMS: Readonly<Record<Exclude<Origin, 'manual'>, string>> = {
  commit:
    'a commit sha of 7 to 40 hex digits, optionally with its repository URL (https://host/repo@<sha> or https://host/repo/commit/<sha>)',
  document: 'an http(s) URL of the document',
  calendar:
    'an event URI (https:, webcal:, urn:, …), an iCalendar UID (…@domain) or a calendar provider’s event id (16+ letters and digits)',
};

/**
 * Decides whether a claim carries what it says it carries. A claim presented as
 * coming from an artifact without a pointer to it is self-report in costume, and
 * the refusal says so, not only which rule failed.
 */
export function checkArtifact(origin: Origin, ref: string | null | undefined): Refusal | null {
  const value = ref?.trim() ? ref.trim() : null;
  if (origin === 'manual') {
    if (value === null) return null;
    return refusal(
      'invalid_value',
      'A manual claim is a self-report and carries no artifact reference; this one has one, so it is not manual.',
      'File it with the origin the artifact has (commit, document or calendar), or drop artifact_ref to file a self-report.',
    );
  }
  if (value === null) {
    return refusal(
      'claim_without_artifact',
      `This claim says it comes from a ${origin}, but gives no reference to that ${origin}. A claim presented as coming from an artifact without a pointer to it is self-report in costume: nobody could check it.`,
      `File it again with artifact_ref set to ${ARTIFACT_FORMS[origin]}, or file it with origin "manual" as what it is, a self-report.`,
    );
  }
  if (!matchesForm(origin, value)) {
    return refusal(
      'artifact_ref_malformed',
      `The reference "${value.slice(0, 200)}" is not of the form a ${origin} reference takes, so it points at nothing anyone could check.`,
      `Send artifact_ref as ${ARTIFACT_FORMS[origin]}, or file the claim with origin "manual".`,
    );
  }
  return null;
}

function matchesForm(origin: Exclude<Origin, 'manual'>, ref: string): boolean {
  switch (origin) {
    case 'commit':
      return SHA.test(ref) || commitUrlSha(ref) !== null;
    case 'document':
      return isUrl(ref, ['http:', 'https:']);
    case 'calendar':
      return isUrl(ref, null) || CALENDAR_UID.test(ref) || CALENDAR_OPAQUE.test(ref);
  }
}

function commitUrlSha(ref: string): string | null {
  const m = /^(https?:\/\/\S+?)(?:@|\/commits?\/)([0-9a-f]{7,40})$/i.exec(ref);
  if (!m || !isUrl(m[1] as string, ['http:', 'https:'])) return null;
  return m[2] as string;
}

function isUrl(value: string, protocols: string[] | null): boolean {
  if (/\s/.test(value)) return false;
  try {
    const u = new URL(value);
    if (protocols) return protocols.includes(u.protocol) && u.hostname.length > 0;
    return /^[a-z][a-z0-9+.-]*:$/.test(u.protocol) && value.length > u.protocol.length + 1;
  } catch {
    return false;
  }
}
