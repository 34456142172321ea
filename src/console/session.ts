import type { IncomingMessage } from 'node:http';
import { hashSecret, newSecret } from '../admin/console-links.ts';
import type { PrincipalRecord, Store } from '../store/contract.ts';
import { cookies } from './web.ts';

/**
 * Console sessions: a random id in an HttpOnly, SameSite=Strict cookie scoped to
 * /console (so it never travels to /mcp), stored only as its hash so replicas on
 * PostgreSQL share it. A new id at every sign-in; idle and absolute expiry; a
 * suspended principal's sessions end at their next request, if suspension did not
 * end them already.
 */
const SESSION_COOKIE = 'warden_console';

export interface SessionConfig {
  idleMs: number;
  maxMs: number;
  /** Set when the public URL is https. */
  secure: boolean;
}

export interface SignedIn {
  principal: PrincipalRecord;
  csrf: string;
  /** The stored hash of this session's id (to end it). */
  hash: string;
}

const TOUCH_MS = 60_000;

function sessionCookie(id: string, cfg: SessionConfig): string {
  return `${SESSION_COOKIE}=${id}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(cfg.maxMs / 1000)}${cfg.secure ? '; Secure' : ''}`;
}

export function clearedCookie(cfg: SessionConfig): string {
  return `${SESSION_COOKIE}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0${cfg.secure ? '; Secure' : ''}`;
}

/**
 * Signs a principal in: any session the browser carried is ended and a fresh id is
 * issued, so an id planted before sign-in (fixation) never becomes a signed-in one.
 */
export async function startSession(
  store: Store,
  req: IncomingMessage,
  principalId: string,
  cfg: SessionConfig,
  now: Date,
): Promise<string> {
  const previous = cookies(req).get(SESSION_COOKIE);
  if (previous) await store.deleteSession(hashSecret(previous));
  const id = newSecret();
  await store.createSession({
    hash: hashSecret(id),
    principalId,
    csrf: newSecret(),
    at: now.toISOString(),
    expiresAt: new Date(now.getTime() + cfg.maxMs).toISOString(),
  });
  return sessionCookie(id, cfg);
}

/** The signed-in principal of this request, or null (no cookie, unknown, expired, idle or suspended). */
export async function currentSession(
  store: Store,
  req: IncomingMessage,
  cfg: SessionConfig,
  now: Date,
): Promise<SignedIn | null> {
  const id = cookies(req).get(SESSION_COOKIE);
  if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
  const hash = hashSecret(id);
  const s = await store.getSession(hash);
  if (!s) return null;
  const t = now.getTime();
  if (Date.parse(s.expiresAt) <= t || Date.parse(s.lastSeenAt) + cfg.idleMs <= t) {
    await store.deleteSession(hash);
    return null;
  }
  const principal = await store.getPrincipalById(s.principalId);
  if (!principal || principal.status === 'suspended') {
    await store.deleteSessionsOf(s.principalId);
    return null;
  }
  if (t - Date.parse(s.lastSeenAt) > TOUCH_MS) await store.touchSession(hash, now.toISOString());
  return { principal, csrf: s.csrf, hash };
}
