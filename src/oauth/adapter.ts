import type { OAuthStore } from '../store/contract.ts';

/** What the authorization server library stores: a JSON object with these optional members. */
type Payload = Record<string, unknown> & { grantId?: string; uid?: string; consumed?: number };

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
    await this.store.oauthSave({
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expiresAt,
    });
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

  async destroy(id: string): Promise<void> {
    await this.store.oauthDestroy(this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.store.oauthRevokeByGrant(grantId);
  }

  private decode(r: { payload: string; consumedAt: string | null } | null): Payload | undefined {
    if (!r) return undefined;
    const payload = JSON.parse(r.payload) as Payload;
    if (r.consumedAt) payload.consumed = Math.floor(Date.parse(r.consumedAt) / 1000);
    return payload;
  }
}
