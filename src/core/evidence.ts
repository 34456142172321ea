import { refusal, type Refusal, type ToolRefusalCode } from './refusal.ts';

export const EVIDENCE_ORIGINS = ['manual', 'commit', 'document', 'calendar'] as const;
export type Origin = (typeof EVIDENCE_ORIGINS)[number];
type ArtifactOrigin = Exclude<Origin, 'manual'>;

/**
 * URL schemes each origin's references may use: anything else (javascript:, file:, data:, …)
 * points nowhere checkable, and plain http: is refused by name (anyone on the way can alter
 * what it shows). webcal: stays for calendars: it names a subscription, and calendar
 * clients choose its transport themselves.
 */
const ARTIFACT_SCHEMES: Readonly<Record<ArtifactOrigin, readonly string[]>> = {
  commit: ['https:'],
  document: ['https:'],
  calendar: ['https:', 'webcal:', 'webcals:'],
};

/** The form of reference each artifact origin needs, as told to a caller that got it wrong. */
const ARTIFACT_FORMS: Readonly<Record<ArtifactOrigin, string>> = {
  commit:
    'the repository URL and the full commit hash (40 hex digits, or 64 for SHA-256), as https://host/owner/repo@<hash> or https://host/owner/repo/commit/<hash>',
  document: 'an https: URL of the document on a public host, e.g. https://docs.example.org/design/42',
  calendar:
    'an https:, webcal: or webcals: URL of the event on a public host, an iCalendar UID (local-part@domain.tld, letters, digits and . _ % + = -), urn:uuid:<uuid>, or a calendar provider’s event id (16 to 255 letters, digits, _ or -, with at least one digit)',
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
  const plainHttp = url.protocol === 'http:';
  if (!allowed.includes(url.protocol) && !plainHttp) {
    return { ok: false, problem: `a ${origin} reference uses ${allowed.join(' ')}, not ${url.protocol}` };
  }
  if (!url.hostname) return { ok: false, problem: 'the URL names no host' };
  const hidden = privateHost(url.hostname);
  if (hidden) return { ok: false, problem: hidden };
  if (plainHttp) {
    return {
      ok: false,
      problem: 'it uses plain http:, which anyone between the reader and the host can alter; use https:',
    };
  }
  if (url.username || url.password) return { ok: false, problem: 'the URL carries a user name or password' };
  return { ok: true, ref: url.href };
}

const PRIVATE_NETWORK = "reachable only inside someone's own network";
const LOOPBACK = 'a loopback address, which points back at whoever opens it';
const METADATA = 'a cloud metadata address, where servers find their own credentials';

/** IPv4 ranges no other member could reach as the filer meant, first match wins. RFC 6890 names them. */
const V4_RANGES: readonly [base: string, bits: number, what: string][] = [
  ['169.254.169.254', 32, METADATA],
  ['0.0.0.0', 8, 'the unspecified address, which reaches the machine of whoever opens it'],
  ['127.0.0.0', 8, LOOPBACK],
  ['10.0.0.0', 8, `a private address (RFC 1918), ${PRIVATE_NETWORK}`],
  ['172.16.0.0', 12, `a private address (RFC 1918), ${PRIVATE_NETWORK}`],
  ['192.168.0.0', 16, `a private address (RFC 1918), ${PRIVATE_NETWORK}`],
  ['100.64.0.0', 10, "a shared address (carrier-grade NAT), reachable only inside one provider's network"],
  ['169.254.0.0', 16, 'a link-local address, reachable only on one network segment'],
  ['192.0.0.0', 24, 'an address reserved for protocol assignments'],
  ['224.0.0.0', 4, 'a multicast address, not one host'],
  ['240.0.0.0', 4, 'a reserved address (broadcast included)'],
];

/** IPv6 ranges, as [prefix, bits, what]; `embeds` ranges carry an IPv4 address in their low 32 bits. */
const V6_RANGES: readonly [base: string, bits: number, what: string | 'embeds'][] = [
  ['::', 128, 'the unspecified address, which reaches the machine of whoever opens it'],
  ['::1', 128, LOOPBACK],
  ['fd00:ec2::254', 128, METADATA],
  ['::ffff:0:0', 96, 'embeds'],
  ['64:ff9b::', 96, 'embeds'],
  ['::', 96, 'embeds'],
  ['fc00::', 7, `a unique-local address (fc00::/7), ${PRIVATE_NETWORK}`],
  ['fe80::', 10, 'a link-local address, reachable only on one network segment'],
  ['fec0::', 10, `a site-local address, ${PRIVATE_NETWORK}`],
  ['ff00::', 8, 'a multicast address, not one host'],
];

/** Names that resolve only inside a private network (RFC 6761, RFC 8375, ICANN's .internal). */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'localdomain', 'internal', 'home.arpa'];

/**
 * Why a URL's host is one no other member could check, and that would reach into the network
 * of whoever opened it (loopback, private, link-local, metadata, unspecified, a single-label
 * or private-use name), or null for a public host. Pure: it reads the host as written (as the
 * WHATWG parser normalised it, so 2130706433 and 0x7f.1 are 127.0.0.1) and resolves no name,
 * so a public name that resolves to a private address is not caught here.
 */
export function privateHost(hostname: string): string | null {
  let host: string;
  try {
    // An opaque host (webcal:) is read as a browser would read it over https.
    host = new URL(`https://${hostname}/`).hostname;
  } catch {
    return `its host ${hostname} is not a host name`;
  }
  const what = host.startsWith('[') ? v6Kind(host.slice(1, -1)) : (v4Kind(host) ?? nameKind(host));
  return what ? `its host ${host} is ${what}` : null;
}

function v4Kind(host: string): string | null {
  const n = v4Number(host);
  if (n === null) return null;
  return v4KindOf(n);
}

function v4KindOf(n: number): string | null {
  for (const [base, bits, what] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === (v4Number(base)! & mask) >>> 0) return what;
  }
  return null;
}

function v4Number(host: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  return m.slice(1).reduce((acc, part) => acc * 256 + Number(part), 0);
}

function v6Kind(host: string): string | null {
  const n = v6Number(host);
  if (n === null) return 'not an IPv6 address';
  for (const [base, bits, what] of V6_RANGES) {
    const shift = BigInt(128 - bits);
    if (n >> shift !== v6Number(base)! >> shift) continue;
    if (what !== 'embeds') return what;
    const v4 = Number(n & 0xffffffffn);
    const inner = v4KindOf(v4);
    if (!inner) return null;
    const dotted = [24, 16, 8, 0].map((s) => (v4 >>> s) & 255).join('.');
    return `an IPv6 form of ${dotted}, ${inner}`;
  }
  return null;
}

/** An IPv6 address as the URL parser serialises it (hex groups, one `::` at most) as a 128-bit number. */
function v6Number(host: string): bigint | null {
  const [head, tail, ...rest] = host.split('::');
  if (rest.length) return null;
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const all = [...h, ...Array<string>(fill).fill('0'), ...t];
  if (all.length !== 8 || all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function nameKind(host: string): string | null {
  const name = host.replace(/\.$/, '');
  if (name === 'metadata.google.internal') return METADATA;
  if (name === 'localhost' || name.endsWith('.localhost'))
    return 'localhost, which points back at whoever opens it';
  const suffix = PRIVATE_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix) return `a name under .${suffix}, used only inside private networks`;
  if (!name.includes('.')) return `a name without a domain, ${PRIVATE_NETWORK}`;
  return null;
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
export type ArtifactCheck =
  { ok: false; refusal: Refusal<ToolRefusalCode> } | { ok: true; ref: string | null };

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

function refused(code: ToolRefusalCode, reason: string, next: string): ArtifactCheck {
  return { ok: false, refusal: refusal(code, reason, next) };
}
