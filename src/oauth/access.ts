import type { AuthorizationServer } from './provider.ts';
import { resourceOf } from './provider.ts';

/** What an OAuth access token presented at /mcp turns out to be. */
export type AccessTokenUse =
  | { kind: 'grant'; grantId: string; scopes: string[]; clientId: string }
  | { kind: 'wrong_audience'; audience: string }
  | { kind: 'unknown' };

/**
 * Looks an access token up through the library (which refuses expired, revoked and
 * malformed ones) and checks that it was issued for this server's /mcp: a token for
 * another resource is refused here even if this authorization server issued it.
 */
export async function resolveAccessToken(
  as: AuthorizationServer,
  base: string,
  token: string,
): Promise<AccessTokenUse> {
  const provider = await as.provider(base);
  const at = await provider.AccessToken.find(token);
  if (!at || !at.grantId) return { kind: 'unknown' };
  const audience = Array.isArray(at.aud) ? at.aud.join(' ') : String(at.aud ?? '');
  if (audience !== resourceOf(base)) return { kind: 'wrong_audience', audience };
  return {
    kind: 'grant',
    grantId: at.grantId,
    scopes: (at.scope ?? '').split(' ').filter(Boolean),
    clientId: at.clientId ?? '',
  };
}
