CREATE TABLE accounts (
  id                 serial PRIMARY KEY,
  name               text NOT NULL,
  -- HMAC-SHA256 of the API token under the service key: lookups without storing the token.
  token_hash         text NOT NULL UNIQUE,
  -- AES-256-GCM copy of the token, needed to build result URLs for callbacks.
  token_encrypted    text NOT NULL,
  balance_cents      bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
  callback_url       text,
  canceled_callbacks boolean NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now()
);

CREATE SEQUENCE order_ids START 1001;

CREATE TABLE orders (
  id                bigint PRIMARY KEY,
  account_id        integer NOT NULL REFERENCES accounts(id),
  product           text NOT NULL,
  status            text NOT NULL,
  price_cents       bigint NOT NULL,
  seconds           integer NOT NULL DEFAULT 0,
  words             integer NOT NULL DEFAULT 0,
  params            jsonb NOT NULL,
  callback_url      text,
  paid_at           timestamptz,
  delivery_estimate timestamptz,
  finished_at       timestamptz,
  qc_status         text,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_account_id_desc ON orders (account_id, id DESC);
CREATE INDEX orders_status ON orders (status, product);

CREATE TABLE ledger_entries (
  id                  bigserial PRIMARY KEY,
  account_id          integer NOT NULL REFERENCES accounts(id),
  order_id            bigint REFERENCES orders(id),
  kind                text NOT NULL CHECK (kind IN ('topup', 'charge', 'refund')),
  amount_cents        bigint NOT NULL,
  balance_after_cents bigint NOT NULL,
  note                text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  -- A retried activity can never charge or refund the same order twice.
  UNIQUE (order_id, kind)
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id);

CREATE TABLE order_files (
  order_id   bigint NOT NULL REFERENCES orders(id),
  kind       text NOT NULL,
  blob_key   text NOT NULL,
  file_name  text NOT NULL,
  version    integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (order_id, kind)
);

CREATE TABLE callback_attempts (
  id          bigserial PRIMARY KEY,
  order_id    bigint NOT NULL REFERENCES orders(id),
  event       text NOT NULL,
  attempt     integer NOT NULL,
  url         text NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  outcome     text NOT NULL,
  detail      text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX callback_attempts_order ON callback_attempts (order_id, id);
