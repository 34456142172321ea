import { readBody } from '@warden-mcp/gate/io';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serialize, type Html } from './html.ts';

/**
 * The console's HTTP edge: security headers on every answer, bounded form bodies,
 * cookies. No inline script or style is ever served, so the policy can be strict.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer Chromium sends "Origin: null" on form posts.
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Cache-Control': 'no-store',
};

const MAX_FORM_BYTES = 64 * 1024;

export function sendHtml(
  res: ServerResponse,
  status: number,
  doc: Html,
  headers: Record<string, string | string[]> = {},
): void {
  // Encoded once: its length and what is sent are the same bytes (a page is built from many
  // pieces, and counting them and then writing them would walk it twice).
  const body = Buffer.from(serialize(doc), 'utf8');
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(body.length),
    ...headers,
  });
  res.end(body);
}

/** A fragment of a page, for the one script that refreshes part of a form (the token preview). */
export function sendHtmlFragment(res: ServerResponse, fragment: Html): void {
  const body = serialize(fragment);
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

export function sendJsonBody(res: ServerResponse, status: number, value: unknown, headers = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

/** 303 See Other: after a successful POST, the browser GETs the result (no resubmission on reload). */
export function redirect(
  res: ServerResponse,
  location: string,
  headers: Record<string, string | string[]> = {},
) {
  res.writeHead(303, { ...SECURITY_HEADERS, Location: location, 'Content-Length': '0', ...headers });
  res.end();
}

/** Reads a body up to the bound (the HTTP edge's own reader); null when larger. */
export async function readBounded(req: IncomingMessage, max = MAX_FORM_BYTES): Promise<string | null> {
  const body = await readBody(req, max);
  return body === null ? null : body.toString('utf8');
}

/** Cookie header → name/value map (first value wins; values are opaque, never decoded into code). */
export function cookies(req: IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 1) continue;
    const name = part.slice(0, i).trim();
    if (!out.has(name)) out.set(name, part.slice(i + 1).trim());
  }
  return out;
}

/** The client address, for rate limits (the socket's, never a header a client can set). */
export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}
