-- Uploads (issue 52): a customer's file sent to the service (tus 1.0, or one raw body), whose URL is
-- an order's `url`. The bytes are a file of the file store (`files/uploads/<id>`); this row is the
-- upload's state, shared by every API process: its owner, what @tus/file-store keeps of it (length,
-- metadata, creation date; the offset is the file's size), when it expires, and when it ended
-- (terminated by its owner, or expired: its bytes are gone).
CREATE TABLE uploads (
  id text PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id),
  info jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  ended_at timestamptz,
  ended_reason text
);
CREATE INDEX uploads_account ON uploads (account_id);

-- The live orders placed on an upload: they keep its bytes as their media when it expires.
CREATE TABLE upload_uses (
  upload_id text NOT NULL REFERENCES uploads (id),
  order_id bigint NOT NULL,
  PRIMARY KEY (upload_id, order_id)
);
