-- The workbench (issue 19): the people who do the human work, their tasks and their earnings.
-- Sessions are shared with the account area: a session belongs to an account or to a worker.
CREATE TABLE workers (
  id serial PRIMARY KEY,
  name text NOT NULL,
  skills jsonb NOT NULL,
  token_hash text NOT NULL UNIQUE,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE account_sessions ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE account_sessions ADD COLUMN worker_id integer REFERENCES workers (id);

-- One row per task workflow (task-<order>-<name>). The workflow owns the claim; the row is its
-- listing, and holds the draft that autosaves write (`saves` counts them: the lease is renewed by them).
CREATE TABLE tasks (
  id text PRIMARY KEY,
  order_id bigint NOT NULL,
  product text NOT NULL,
  stage text NOT NULL,
  part_no integer NOT NULL,
  span_start double precision NOT NULL,
  span_end double precision NOT NULL,
  words integer NOT NULL DEFAULT 0,
  skill text NOT NULL,
  deadline timestamptz NOT NULL,
  status text NOT NULL,
  claimed_by integer REFERENCES workers (id),
  claimed_at timestamptz,
  draft text NOT NULL DEFAULT '',
  base_text text,
  saves integer NOT NULL DEFAULT 0,
  saved_at timestamptz,
  note text,
  submitted_by integer REFERENCES workers (id),
  pay_cents integer NOT NULL DEFAULT 0,
  lease_expiries integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);
CREATE INDEX tasks_queue ON tasks (status, deadline);
CREATE INDEX tasks_order ON tasks (order_id);

-- A worker is credited once per approved task.
CREATE TABLE worker_earnings (
  task_id text PRIMARY KEY REFERENCES tasks (id),
  worker_id integer NOT NULL REFERENCES workers (id),
  order_id bigint NOT NULL,
  cents integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX worker_earnings_worker ON worker_earnings (worker_id, created_at);
