import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/contract.ts';
import { AdminRefusal } from './errors.ts';
import { requirePrincipal } from './principals.ts';

/** The console's sign-in page for a link; the secret travels in the query. */
export const LINK_PATH = '/console/link';
const MAX_LINK_MS = 7 * 86_400_000;

/** SHA-256 of a console secret (link, session id, challenge): what the store keeps instead. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** 256 random bits, base64url: a link token or a session id. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Parses "15m", "2h" or "1d" for a sign-in link; default 15 minutes, at most 7 days. */
export function parseLinkExpiry(text: string | undefined, now: Date): string {
  const m = /^(\d{1,5})([dhm])$/.exec(text ?? '15m');
  const ms = m ? Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'] : NaN;
  if (!m || ms < 60_000 || ms > MAX_LINK_MS) {
    throw new AdminRefusal(
      'invalid_value',
      `A sign-in link lasts between 1 minute and 7 days, written like 15m, 2h or 1d; got "${text}".`,
      'Give --expires such as 15m.',
    );
  }
  return new Date(now.getTime() + ms).toISOString();
}

export interface LoginLink {
  url: string;
  handle: string;
  expiresAt: string;
}

/**
 * Makes a one-time sign-in link for a principal: it works once, expires, and only
 * its hash is stored. A suspended principal gets none.
 */
export async function makeLoginLink(
  store: Store,
  handle: string,
  opts: { publicUrl: string; expires?: string; now?: Date },
): Promise<LoginLink> {
  const now = opts.now ?? new Date();
  const p = await requirePrincipal(store, handle);
  if (p.status === 'suspended') {
    throw new AdminRefusal(
      'suspended',
      `${handle} is suspended; no sign-in link can be made.`,
      `Reinstate ${handle} first.`,
    );
  }
  const expiresAt = parseLinkExpiry(opts.expires, now);
  const secret = newSecret();
  await store.createLoginLink({ hash: hashSecret(secret), principalId: p.id, expiresAt });
  const base = opts.publicUrl.replace(/\/+$/, '');
  return { url: `${base}${LINK_PATH}?t=${secret}`, handle: p.handle, expiresAt };
}
