import type { ConsoleSessionRecord, ConsoleStore, LinkUse, PasskeyRecord } from './contract.ts';
import { OAuthSql } from './oauth-sql.ts';
import type { Row, SqlExecutor } from './sql.ts';

/**
 * The console's part of the store over any SqlExecutor. Secrets (link tokens,
 * session ids, challenges) arrive here already hashed: nothing stored opens anything.
 */
export class ConsoleSql extends OAuthSql implements ConsoleStore {
  constructor(sql: SqlExecutor) {
    super(sql);
  }

  async setOperator(id: string, operator: boolean): Promise<void> {
    await this.sql.run(`UPDATE principals SET operator = ?, updated_at = ? WHERE id = ?`, [
      operator ? 1 : 0,
      new Date().toISOString(),
      id,
    ]);
  }

  async createLoginLink(l: { hash: string; principalId: string; expiresAt: string }): Promise<void> {
    await this.sql.run(
      `INSERT INTO console_links (hash, principal_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
      [l.hash, l.principalId, new Date().toISOString(), l.expiresAt],
    );
  }

  async consumeLoginLink(hash: string, at: string): Promise<LinkUse> {
    const changed = await this.sql.run(
      `UPDATE console_links SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?`,
      [at, hash, at],
    );
    const row = await this.sql.get(`SELECT principal_id, used_at FROM console_links WHERE hash = ?`, [hash]);
    if (!row) return { result: 'unknown' };
    if (changed === 1) return { result: 'ok', principalId: String(row['principal_id']) };
    return { result: row['used_at'] === null ? 'expired' : 'used' };
  }

  async createSession(s: { hash: string; principalId: string; csrf: string; at: string; expiresAt: string }) {
    const at = s.at;
    await this.sql.run(
      `INSERT INTO console_sessions (hash, principal_id, csrf, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
      [s.hash, s.principalId, s.csrf, at, at, s.expiresAt],
    );
  }

  async getSession(hash: string): Promise<ConsoleSessionRecord | null> {
    const r = await this.sql.get(`SELECT * FROM console_sessions WHERE hash = ?`, [hash]);
    if (!r) return null;
    return {
      principalId: String(r['principal_id']),
      csrf: String(r['csrf']),
      createdAt: String(r['created_at']),
      lastSeenAt: String(r['last_seen_at']),
      expiresAt: String(r['expires_at']),
    };
  }

  async touchSession(hash: string, at: string): Promise<void> {
    await this.sql.run(`UPDATE console_sessions SET last_seen_at = ? WHERE hash = ?`, [at, hash]);
  }

  async deleteSession(hash: string): Promise<void> {
    await this.sql.run(`DELETE FROM console_sessions WHERE hash = ?`, [hash]);
  }

  deleteSessionsOf(principalId: string): Promise<number> {
    return this.sql.run(`DELETE FROM console_sessions WHERE principal_id = ?`, [principalId]);
  }

  async addPasskey(p: Omit<PasskeyRecord, 'createdAt' | 'lastUsedAt'>): Promise<PasskeyRecord> {
    await this.sql.run(
      `INSERT INTO console_passkeys (id, principal_id, public_key, counter, transports, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        p.id,
        p.principalId,
        p.publicKey,
        p.counter,
        JSON.stringify(p.transports),
        p.label,
        new Date().toISOString(),
      ],
    );
    return (await this.getPasskey(p.id))!;
  }

  async getPasskey(id: string): Promise<PasskeyRecord | null> {
    const r = await this.sql.get(`SELECT * FROM console_passkeys WHERE id = ?`, [id]);
    return r ? toPasskey(r) : null;
  }

  async listPasskeys(principalId: string): Promise<PasskeyRecord[]> {
    const rows = await this.sql.all(
      `SELECT * FROM console_passkeys WHERE principal_id = ? ORDER BY created_at, id`,
      [principalId],
    );
    return rows.map(toPasskey);
  }

  async usePasskey(id: string, counter: number, at: string): Promise<void> {
    await this.sql.run(`UPDATE console_passkeys SET counter = ?, last_used_at = ? WHERE id = ?`, [
      counter,
      at,
      id,
    ]);
  }

  async deletePasskey(id: string, principalId: string): Promise<boolean> {
    const n = await this.sql.run(`DELETE FROM console_passkeys WHERE id = ? AND principal_id = ?`, [
      id,
      principalId,
    ]);
    return n > 0;
  }

  async saveChallenge(c: { hash: string; purpose: string; principalId: string | null; expiresAt: string }) {
    // Expired challenges are swept on the way in, so the table stays bounded by live ceremonies.
    await this.sql.batch([
      { sql: `DELETE FROM console_challenges WHERE expires_at <= ?`, params: [new Date().toISOString()] },
      {
        sql: `INSERT INTO console_challenges (hash, purpose, principal_id, expires_at) VALUES (?, ?, ?, ?)`,
        params: [c.hash, c.purpose, c.principalId, c.expiresAt],
      },
    ]);
  }

  async takeChallenge(hash: string, purpose: string, at: string) {
    const r = await this.sql.get(
      `SELECT principal_id FROM console_challenges WHERE hash = ? AND purpose = ? AND expires_at > ?`,
      [hash, purpose, at],
    );
    const n = await this.sql.run(`DELETE FROM console_challenges WHERE hash = ? AND purpose = ?`, [
      hash,
      purpose,
    ]);
    if (!r || n !== 1) return null;
    const id = r['principal_id'];
    return { principalId: id === null || id === undefined ? null : String(id) };
  }
}

function toPasskey(r: Row): PasskeyRecord {
  let transports: string[] = [];
  try {
    const parsed = JSON.parse(String(r['transports'])) as unknown;
    if (Array.isArray(parsed)) transports = parsed.map(String);
  } catch {
    transports = [];
  }
  return {
    id: String(r['id']),
    principalId: String(r['principal_id']),
    publicKey: String(r['public_key']),
    counter: Number(r['counter']),
    transports,
    label: String(r['label']),
    createdAt: String(r['created_at']),
    lastUsedAt:
      r['last_used_at'] === null || r['last_used_at'] === undefined ? null : String(r['last_used_at']),
  };
}
