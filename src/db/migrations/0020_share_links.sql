-- Share links (issue 44): a finished order's transcript page opened without signing in, by a token
-- of its own. Only the token's HMAC is looked up; the token is kept encrypted so the account's page
-- can show the link again. At most one link per order; stopping it, or rotating the account's API
-- token, deletes the row, and the link answers 404 at once.
CREATE TABLE share_links (
  token_hash text PRIMARY KEY,
  token_encrypted text NOT NULL,
  account_id integer NOT NULL REFERENCES accounts (id),
  order_id bigint NOT NULL UNIQUE REFERENCES orders (id),
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX share_links_account ON share_links (account_id);
