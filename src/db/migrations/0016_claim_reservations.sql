-- Claims in flight (issue 41): a claim takes one of the worker's TASK_MAX_HELD slots here before its
-- update goes to the workflow holding the task, under a lock on the worker's row, and gives it back
-- once the update has answered (the task row then says who holds it). A slot left by a process that
-- died mid-claim lapses at `expires_at`; a live claim renews it while its update runs.
CREATE TABLE claim_reservations (
  id bigserial PRIMARY KEY,
  worker_id integer NOT NULL REFERENCES workers (id),
  task_id text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX claim_reservations_worker ON claim_reservations (worker_id);
