import type { DecisionOutcome, OAuthRecord, OAuthSaved, OAuthStore } from './contract.ts';
import type { GuardedStatement, SqlExecutor } from './sql.ts';

const SWEEP_EVERY = 100;

/**
 * The authorization server's records over any SqlExecutor. One upsert per save (a
 * refresh token or grant is saved again when it changes); reads skip expired rows, so
 * an expired code or token is simply not found, on every replica alike.
 */
export class OAuthSql implements OAuthStore {
  /** Saves since the last sweep of expired records. */
  private saves = 0;

  constructor(readonly sql: SqlExecutor) {}

  async oauthSave(r: OAuthSaved): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_records (model, id, payload, grant_id, uid, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, expires_at = excluded.expires_at`,
      [r.model, r.id, r.payload, r.grantId, r.uid, r.expiresAt],
    );
    // Expired codes, tokens and interactions are never read again; every so many saves,
    // one indexed delete clears them, so the table stays as large as what is live.
    if (++this.saves >= SWEEP_EVERY) {
      this.saves = 0;
      await this.sql.run(`DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at < ?`, [
        new Date().toISOString(),
      ]);
    }
  }

  async oauthFind(model: string, id: string, now: string): Promise<OAuthRecord | null> {
    const r = await this.sql.get(
      `SELECT payload, consumed_at FROM oauth_records WHERE model = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)`,
      [model, id, now],
    );
    return r
      ? { payload: String(r['payload']), consumedAt: (r['consumed_at'] as string | null) ?? null }
      : null;
  }

  async oauthFindByUid(model: string, uid: string, now: string): Promise<OAuthRecord | null> {
    const r = await this.sql.get(
      `SELECT payload, consumed_at FROM oauth_records WHERE model = ? AND uid = ? AND (expires_at IS NULL OR expires_at > ?)`,
      [model, uid, now],
    );
    return r
      ? { payload: String(r['payload']), consumedAt: (r['consumed_at'] as string | null) ?? null }
      : null;
  }

  async oauthConsume(model: string, id: string, at: string): Promise<void> {
    await this.sql.run(
      `UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL`,
      [at, model, id],
    );
  }

  async oauthDestroy(model: string, id: string): Promise<void> {
    await this.sql.run(`DELETE FROM oauth_records WHERE model = ? AND id = ?`, [model, id]);
  }

  async oauthRevokeByGrant(grantId: string, at: string, withdrawal?: DecisionOutcome): Promise<void> {
    const connection = `SELECT id FROM tokens WHERE grant_id = ? AND origin = 'oauth' AND revoked_at IS NULL`;
    await this.sql.write([
      // The connection's queued requests first: they are found through its still-live row.
      ...(withdrawal
        ? [
            {
              sql: `UPDATE decisions SET status = 'stale', outcome = ?, decided_at = ?
                    WHERE status = 'pending' AND token_id IN (${connection})`,
              params: [JSON.stringify(withdrawal), at, grantId],
            },
          ]
        : []),
      {
        sql: `UPDATE tokens SET revoked_at = ? WHERE grant_id = ? AND origin = 'oauth' AND revoked_at IS NULL`,
        params: [at, grantId],
      },
      {
        sql: `DELETE FROM oauth_records WHERE grant_id = ? OR (model = 'Grant' AND id = ?)`,
        params: [grantId, grantId],
      },
    ]);
  }

  /**
   * The statements that end every OAuth grant of a principal for good: their live
   * connections' queued requests withdrawn, the connections marked revoked, and every
   * code, access and refresh token and grant under them deleted, so nothing the client
   * holds works again, whatever the principal's standing later becomes.
   */
  protected grantEndingsOf(principalId: string, at: string, withdrawal: DecisionOutcome): GuardedStatement[] {
    const live = `SELECT id FROM tokens WHERE principal_id = ? AND origin = 'oauth' AND revoked_at IS NULL`;
    const grants = `SELECT grant_id FROM tokens WHERE principal_id = ? AND origin = 'oauth' AND grant_id IS NOT NULL`;
    return [
      {
        sql: `UPDATE decisions SET status = 'stale', outcome = ?, decided_at = ?
              WHERE status = 'pending' AND token_id IN (${live})`,
        params: [JSON.stringify(withdrawal), at, principalId],
      },
      {
        sql: `UPDATE tokens SET revoked_at = ? WHERE principal_id = ? AND origin = 'oauth' AND revoked_at IS NULL`,
        params: [at, principalId],
      },
      {
        sql: `DELETE FROM oauth_records WHERE grant_id IN (${grants}) OR (model = 'Grant' AND id IN (${grants}))`,
        params: [principalId, principalId],
      },
    ];
  }
}
