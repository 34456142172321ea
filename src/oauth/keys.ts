import { createPrivateKey } from 'node:crypto';
import type { JWK } from 'oidc-provider';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The authorization server's signing key, derived from a 32-byte secret the store keeps,
 * so every replica signs with (and publishes) the same key without a key file to ship.
 */
export function signingKey(secret: string): JWK {
  const seed = Buffer.from(secret, 'base64url');
  if (seed.length !== 32) throw new Error('the OAuth signing secret must be 32 bytes');
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = key.export({ format: 'jwk' }) as JWK;
  return { ...jwk, use: 'sig', alg: 'Ed25519', kid: 'warden-1' };
}
