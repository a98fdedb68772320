-- Sessions of the account area (/account). The cookie carries a random id; only its sha256 is
-- stored, so a copy of the table signs nobody in. Sign-out deletes the row.
CREATE TABLE account_sessions (
  id_hash text PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id),
  csrf_token text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_sessions_expires_at ON account_sessions (expires_at);
