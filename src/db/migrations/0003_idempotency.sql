-- Idempotency keys of order creation: one row per (account, key). A row is either in flight
-- (response_body NULL; locked until its request can no longer charge) or holds the first answer,
-- which a retry with the same key and parameters receives byte for byte.
CREATE TABLE idempotency_keys (
  account_id integer NOT NULL REFERENCES accounts(id),
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash text NOT NULL,
  order_id bigint,
  status_code integer,
  response_body text,
  locked_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
