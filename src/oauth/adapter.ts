import { AsyncLocalStorage } from 'node:async_hooks';
import { staleOutcome } from '../admin/stale.ts';
import type { OAuthSaved, OAuthStore } from '../store/contract.ts';

/** What the authorization server library stores: a JSON object with these optional members. */
type Payload = Record<string, unknown> & { grantId?: string; uid?: string; consumed?: number };

/** Saves held back instead of written, for the code running inside `holdingSaves`. */
const held = new AsyncLocalStorage<OAuthSaved[]>();

/**
 * Runs `fn` with every save it makes through the library held back instead of
 * written, and returns them: so a grant the library builds can be written in the
 * same transaction as the connection that stands for it, by the store, or not at all.
 */
export async function holdingSaves<T>(fn: () => Promise<T>): Promise<{ result: T; saves: OAuthSaved[] }> {
  const saves: OAuthSaved[] = [];
  const result = await held.run(saves, fn);
  return { result, saves };
}

/**
 * The library's persistence interface (its "adapter"), backed by Warden's store, so
 * every replica sees the same codes, tokens and grants. One instance per model name
 * (AccessToken, AuthorizationCode, RefreshToken, Grant, Client, Interaction, Session…).
 */
export class StoreAdapter {
  constructor(
    private readonly store: OAuthStore,
    private readonly model: string,
    private readonly now: () => Date,
  ) {}

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const expiresAt =
      typeof expiresIn === 'number' ? new Date(this.now().getTime() + expiresIn * 1000).toISOString() : null;
    const record: OAuthSaved = {
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expiresAt,
    };
    const holding = held.getStore();
    if (holding) holding.push(record);
    else await this.store.oauthSave(record);
  }

  async find(id: string): Promise<Payload | undefined> {
    return this.decode(await this.store.oauthFind(this.model, id, this.now().toISOString()));
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    return this.decode(await this.store.oauthFindByUid(this.model, uid, this.now().toISOString()));
  }

  /** Device flow only, which Warden does not enable. */
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await this.store.oauthConsume(this.model, id, this.now().toISOString());
  }

  /** The library destroys a grant only to revoke it (a reused code, a replayed refresh token, a revocation). */
  async destroy(id: string): Promise<void> {
    if (this.model === 'Grant') await this.revokeByGrantId(id);
    else await this.store.oauthDestroy(this.model, id);
  }

  /**
   * Everything a grant issued goes, and with it the connection that stands for it: its
   * token row is marked revoked and its queued requests withdrawn in the same write, so
   * the principal's list never shows a connection the library has already ended.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    const at = this.now().toISOString();
    await this.store.oauthRevokeByGrant(
      grantId,
      at,
      staleOutcome(
        'token_revoked',
        `The connection that asked was revoked on ${at}: its grant ended (an authorization code used twice, a refresh token replayed, or the client's own revocation), which withdrew the requests its agent had queued.`,
      ),
    );
  }

  private decode(r: { payload: string; consumedAt: string | null } | null): Payload | undefined {
    if (!r) return undefined;
    const payload = JSON.parse(r.payload) as Payload;
    if (r.consumedAt) payload.consumed = Math.floor(Date.parse(r.consumedAt) / 1000);
    return payload;
  }
}
