/**
 * The schema, as ordered migrations. Written in the SQL subset SQLite and
 * PostgreSQL share (TEXT timestamps in ISO 8601, INTEGER booleans), so one list
 * serves both adapters and they cannot drift apart.
 *
 * Handles sort by COLLATE "BINARY" (SQLite's built-in byte order). PostgreSQL has no
 * collation of that name until its adapter creates one from "C" before migrating;
 * without it, list order would follow the database's locale (ICU puts `a_c` before
 * `a-d`, bytes do not) and the two backends would list members differently.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE principals (
     id TEXT PRIMARY KEY,
     handle TEXT NOT NULL UNIQUE COLLATE "BINARY",
     status TEXT NOT NULL CHECK (status IN ('candidate','member','suspended')),
     accepts_questions INTEGER NOT NULL DEFAULT 1,
     display_name TEXT NOT NULL,
     headline TEXT NOT NULL DEFAULT '',
     bio TEXT NOT NULL DEFAULT '',
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE tokens (
     id TEXT PRIMARY KEY,
     principal_id TEXT NOT NULL REFERENCES principals(id),
     label TEXT NOT NULL,
     token_hash TEXT NOT NULL UNIQUE,
     scopes TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT,
     revoked_at TEXT,
     last_used_at TEXT
   );
   CREATE INDEX tokens_principal ON tokens(principal_id);
   CREATE TABLE mandates (
     principal_id TEXT PRIMARY KEY REFERENCES principals(id),
     scopes TEXT NOT NULL,
     consult_counterparts TEXT NOT NULL,
     consult_daily INTEGER,
     reviews_need_approval INTEGER NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE evidence (
     id TEXT PRIMARY KEY,
     principal_id TEXT NOT NULL REFERENCES principals(id),
     origin TEXT NOT NULL,
     claim TEXT NOT NULL,
     artifact_ref TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX evidence_principal ON evidence(principal_id);
   CREATE TABLE questions (
     id TEXT PRIMARY KEY,
     asker_id TEXT NOT NULL REFERENCES principals(id),
     target_id TEXT NOT NULL REFERENCES principals(id),
     question TEXT NOT NULL,
     answer TEXT,
     status TEXT NOT NULL CHECK (status IN ('open','answered')),
     asked_at TEXT NOT NULL,
     answered_at TEXT
   );
   CREATE INDEX questions_target ON questions(target_id);
   CREATE INDEX questions_asker ON questions(asker_id, asked_at);
   CREATE TABLE reviews (
     id TEXT PRIMARY KEY,
     reviewer_id TEXT NOT NULL REFERENCES principals(id),
     candidate_id TEXT NOT NULL REFERENCES principals(id),
     verdict TEXT NOT NULL CHECK (verdict IN ('support','oppose')),
     note TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX reviews_candidate ON reviews(candidate_id);
   CREATE TABLE decisions (
     id TEXT PRIMARY KEY,
     principal_id TEXT NOT NULL REFERENCES principals(id),
     token_id TEXT,
     tool TEXT NOT NULL,
     arguments TEXT NOT NULL,
     reason_code TEXT NOT NULL,
     reason TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending','approved','denied')),
     note TEXT,
     outcome TEXT,
     created_at TEXT NOT NULL,
     decided_at TEXT
   );
   CREATE INDEX decisions_principal ON decisions(principal_id, status);`,
  // Limits the store enforces whatever the number of replicas: a decision can be
  // closed as stale (its authority lapsed before it was approved), and one review
  // per (reviewer, candidate) is a unique index, not a read before the write. An
  // older store may hold a duplicate review from before: the earliest one stays.
  `CREATE TABLE decisions_v2 (
     id TEXT PRIMARY KEY,
     principal_id TEXT NOT NULL REFERENCES principals(id),
     token_id TEXT,
     tool TEXT NOT NULL,
     arguments TEXT NOT NULL,
     reason_code TEXT NOT NULL,
     reason TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending','approved','denied','stale')),
     note TEXT,
     outcome TEXT,
     created_at TEXT NOT NULL,
     decided_at TEXT
   );
   INSERT INTO decisions_v2 (id, principal_id, token_id, tool, arguments, reason_code, reason, status, note, outcome, created_at, decided_at)
     SELECT id, principal_id, token_id, tool, arguments, reason_code, reason, status, note, outcome, created_at, decided_at FROM decisions;
   DROP TABLE decisions;
   ALTER TABLE decisions_v2 RENAME TO decisions;
   CREATE INDEX decisions_principal ON decisions(principal_id, status);
   CREATE INDEX decisions_token ON decisions(token_id, status);
   DELETE FROM reviews WHERE EXISTS (
     SELECT 1 FROM reviews earlier
     WHERE earlier.reviewer_id = reviews.reviewer_id AND earlier.candidate_id = reviews.candidate_id
       AND (earlier.created_at < reviews.created_at OR (earlier.created_at = reviews.created_at AND earlier.id < reviews.id))
   );
   CREATE UNIQUE INDEX reviews_once ON reviews(reviewer_id, candidate_id);`,
  // The console: the operator role, one-time sign-in links, sessions and passkeys.
  // Links, sessions and challenges are stored only as SHA-256 hashes of their secrets,
  // so a copy of the store opens nothing; replicas on PostgreSQL share all of them.
  `ALTER TABLE principals ADD COLUMN operator INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE console_links (
     hash TEXT PRIMARY KEY,
     principal_id TEXT NOT NULL REFERENCES principals(id),
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     used_at TEXT
   );
   CREATE TABLE console_sessions (
     hash TEXT PRIMARY KEY,
     principal_id TEXT NOT NULL REFERENCES principals(id),
     csrf TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );
   CREATE INDEX console_sessions_principal ON console_sessions(principal_id);
   CREATE TABLE console_passkeys (
     id TEXT PRIMARY KEY,
     principal_id TEXT NOT NULL REFERENCES principals(id),
     public_key TEXT NOT NULL,
     counter INTEGER NOT NULL,
     transports TEXT NOT NULL,
     label TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT
   );
   CREATE INDEX console_passkeys_principal ON console_passkeys(principal_id);
   CREATE TABLE console_challenges (
     hash TEXT PRIMARY KEY,
     purpose TEXT NOT NULL,
     principal_id TEXT,
     expires_at TEXT NOT NULL
   );`,
  // Paging and search. Keyset pages read an index in list order (no OFFSET, no sort);
  // principal_terms holds each principal's lower-cased words (handle, name, headline)
  // for prefix search by B-tree range, which both engines serve the same way. The
  // server secret signs cursors: one row per store, so every replica accepts the
  // cursors of every other.
  `CREATE TABLE server_secrets (
     name TEXT PRIMARY KEY,
     value TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE principal_terms (
     term TEXT NOT NULL COLLATE "BINARY",
     principal_id TEXT NOT NULL REFERENCES principals(id),
     PRIMARY KEY (term, principal_id)
   );
   CREATE INDEX principal_terms_principal ON principal_terms(principal_id);
   CREATE INDEX principals_status_handle ON principals(status, handle);
   DROP INDEX evidence_principal;
   CREATE INDEX evidence_principal_time ON evidence(principal_id, created_at, id);
   DROP INDEX questions_target;
   DROP INDEX questions_asker;
   CREATE INDEX questions_target_time ON questions(target_id, asked_at, id);
   CREATE INDEX questions_target_status_time ON questions(target_id, status, asked_at, id);
   CREATE INDEX questions_asker_time ON questions(asker_id, asked_at, id);
   CREATE INDEX decisions_principal_time ON decisions(principal_id, created_at, id);
   CREATE INDEX decisions_principal_status_time ON decisions(principal_id, status, created_at, id);`,
  // Search checks a candidate's other query words by (principal, term): one index seek
  // per word instead of reading each of the principal's term rows.
  `DROP INDEX principal_terms_principal;
   CREATE INDEX principal_terms_principal_term ON principal_terms(principal_id, term);`,
  // Rate-limit buckets for `warden serve --shared-rate-limits`: one row per caller,
  // taken by one conditional upsert so replicas share each bucket.
  `CREATE TABLE rate_buckets (
     bucket TEXT PRIMARY KEY,
     tokens DOUBLE PRECISION NOT NULL,
     at_ms DOUBLE PRECISION NOT NULL
   );
   CREATE INDEX rate_buckets_at ON rate_buckets(at_ms);`,
  // OAuth: a client a principal connects through the consent page gets an agent token
  // in the same table (origin 'oauth', the client's id and the grant that binds its
  // access and refresh tokens), so mandate, revocation and suspension apply unchanged.
  // oauth_records holds the authorization server's short-lived artifacts (codes,
  // access and refresh tokens, grants, registered clients, interactions), each as
  // JSON, found by model and id, by grant (to revoke everything a grant issued) or by
  // uid (an interaction's session). Access and refresh tokens are kept by the
  // library's opaque id, never by the bearer value the client holds.
  `ALTER TABLE tokens ADD COLUMN origin TEXT NOT NULL DEFAULT 'static';
   ALTER TABLE tokens ADD COLUMN client_id TEXT;
   ALTER TABLE tokens ADD COLUMN grant_id TEXT;
   CREATE INDEX tokens_grant ON tokens(grant_id);
   CREATE TABLE oauth_records (
     model TEXT NOT NULL,
     id TEXT NOT NULL,
     payload TEXT NOT NULL,
     grant_id TEXT,
     uid TEXT,
     expires_at TEXT,
     consumed_at TEXT,
     PRIMARY KEY (model, id)
   );
   CREATE INDEX oauth_records_grant ON oauth_records(grant_id);
   CREATE INDEX oauth_records_uid ON oauth_records(uid);
   CREATE INDEX oauth_records_expiry ON oauth_records(expires_at);`,
  // Activity: one row per tools/call made with a principal's token, read only by the
  // console. Each principal's rows are numbered (seq) from activity_counts, the calls
  // ever recorded for them, moved in the same transaction: the number orders and keys
  // the rows, and the write that adds rows removes those past the count bound as an
  // index range (store/activity.ts). at is ISO text, like every time here.
  `CREATE TABLE activity (
     principal_id TEXT NOT NULL REFERENCES principals(id),
     seq BIGINT NOT NULL,
     token_id TEXT NOT NULL,
     tool TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('done','refused','queued')),
     code TEXT,
     decision_id TEXT,
     summary TEXT NOT NULL,
     at TEXT NOT NULL,
     PRIMARY KEY (principal_id, seq)
   );
   CREATE INDEX activity_token ON activity(principal_id, token_id, seq);
   CREATE TABLE activity_counts (
     principal_id TEXT PRIMARY KEY REFERENCES principals(id),
     n BIGINT NOT NULL
   );`,
  // The members' reviews of a candidate are read a page at a time on the operator's page,
  // newest first, from an index in that order, as evidence is.
  `DROP INDEX reviews_candidate;
   CREATE INDEX reviews_candidate_time ON reviews(candidate_id, created_at, id);`,
  // Private words (store/private-words.ts): fingerprints, never text, of what another
  // member wrote privately to a principal, one row each, with its author and when it was
  // last served to the principal's agents; bounded per principal by count and by age.
  `CREATE TABLE private_words (
     principal_id TEXT NOT NULL REFERENCES principals(id),
     fingerprint TEXT NOT NULL,
     author_handle TEXT NOT NULL,
     served_at TEXT NOT NULL,
     PRIMARY KEY (principal_id, fingerprint)
   );
   CREATE INDEX private_words_served ON private_words(principal_id, served_at);
   CREATE INDEX private_words_author ON private_words(principal_id, author_handle, served_at);`,
  // The mandate's further terms (whom agents may answer, which profile changes and whether
  // self-reports wait, how long a denial holds) as one JSON object: a row from before reads
  // `{}`, whose missing keys take the defaults. A decision keeps what makes a later request
  // "the same" (core/same-request.ts), found by principal and key when a denial is checked.
  `ALTER TABLE mandates ADD COLUMN terms TEXT NOT NULL DEFAULT '{}';
   ALTER TABLE decisions ADD COLUMN request_key TEXT;
   CREATE INDEX decisions_principal_key ON decisions(principal_id, request_key, decided_at);`,
];
