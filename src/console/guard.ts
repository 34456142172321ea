import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Cross-site request checks for every state-changing console request: the Origin
 * must be this console's own (the public URL's, or the very host the request came
 * to, which the server's Host guard has already vetted), and a signed-in request
 * must carry its session's CSRF token. Either alone would do in today's browsers;
 * both together also cover older ones and same-site neighbours on other ports.
 */
export function sameOrigin(req: IncomingMessage, base: string): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) {
    // Browsers send Origin on every POST; a missing one is only trusted when the fetch metadata says same-origin.
    return req.headers['sec-fetch-site'] === 'same-origin';
  }
  const own = new URL(base);
  if (origin === own.origin) return true;
  const host = req.headers.host;
  return host !== undefined && origin === `${own.protocol}//${host}`;
}

export function csrfMatches(sent: string | null, expected: string): boolean {
  if (sent === null) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
