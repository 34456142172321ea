import { createHash, randomBytes } from 'node:crypto';

/** Recognisable prefix: secret scanners and humans can tell a Warden agent token at a glance. */
const TOKEN_PREFIX = 'wdn_';
const TOKEN_SHAPE = /^wdn_[A-Za-z0-9_-]{43}$/;

/** A fresh agent token: 256 random bits, base64url, shown once and never stored. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** What the store keeps instead of the token. SHA-256 suffices: the input has 256 bits of entropy. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}
