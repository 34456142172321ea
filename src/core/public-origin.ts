/**
 * The server's one public origin: the scheme, host and port people and clients open. Every
 * link, redirect, OAuth issuer and resource, and the passkeys' relying party is built from it,
 * so a sign-in link made anywhere (the console, the CLI, the consent page) opens where a
 * passkey works. Pure: the caller says how the server listens and what was configured.
 */

/** The port `warden serve` listens on unless told otherwise. */
export const DEFAULT_PORT = 8787;

/** Thrown for a public URL that cannot be the server's origin, or a bind that needs one configured. */
export class PublicOriginError extends Error {
  override name = 'PublicOriginError';
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Loopback by name or address: this machine only (`localhost`, 127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * An IP address rather than a name (as a URL's hostname spells it: IPv6 in brackets).
 * Browsers refuse an IP address as a passkey's relying party.
 */
export function isIpLiteral(hostname: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');
}

/**
 * A configured public URL as an origin (`https://club.example.org`, `http://localhost:8787`),
 * or a PublicOriginError saying what is wrong with it. A path, query, fragment or credentials
 * are refused rather than dropped: the server serves from its root, and a link built from a
 * URL the operator did not mean would lead nowhere.
 */
export function parsePublicUrl(text: string): string {
  const url = URL.parse(text.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new PublicOriginError(
      `the public URL must be an http or https address such as https://club.example.org; got "${text}"`,
    );
  if (url.username || url.password)
    throw new PublicOriginError(`the public URL must not carry a user name or password; got "${text}"`);
  if (url.pathname !== '/' || url.search || url.hash)
    throw new PublicOriginError(
      `the public URL is an origin only (scheme, host, port), without a path, query or fragment: the server serves /mcp and /console/ from its root; got "${text}", did you mean ${url.origin}?`,
    );
  return url.origin;
}

/** The public origin of a server on this machine, by name: `http://localhost:PORT`. */
export function defaultPublicOrigin(port: number = DEFAULT_PORT): string {
  return `http://localhost:${port}`;
}

/**
 * The public origin of a server listening on `host`:`port`: the configured one when given,
 * else `http://localhost:PORT` for a loopback bind (a name, where passkeys work; the same
 * machine as 127.0.0.1). A bind beyond loopback (0.0.0.0, a LAN address, a host name) is
 * opened from other machines at an address only the operator knows, so it needs one
 * configured: guessing would send people to a page that is not there.
 */
export function resolvePublicOrigin(opts: { publicUrl?: string; host: string; port: number }): string {
  if (opts.publicUrl !== undefined) return parsePublicUrl(opts.publicUrl);
  const bound = opts.host.startsWith('[') ? opts.host.slice(1, -1) : opts.host;
  if (isLoopbackHost(bound)) return defaultPublicOrigin(opts.port);
  throw new PublicOriginError(
    `listening on ${opts.host} serves other machines, which open this server at an address only you know: give it as the public URL (--public-url https://club.example.org, or WARDEN_PUBLIC_URL); sign-in links, OAuth and passkeys are built from it`,
  );
}

/**
 * Whether a request's Host header names the public origin (same host and port, the
 * scheme's default port implied). A TLS proxy in front passes the Host it was asked for.
 */
export function isPublicHost(hostHeader: string | undefined, origin: string): boolean {
  if (hostHeader === undefined) return false;
  const own = new URL(origin);
  const asked = URL.parse(`${own.protocol}//${hostHeader}`);
  return asked !== null && asked.host === own.host;
}
