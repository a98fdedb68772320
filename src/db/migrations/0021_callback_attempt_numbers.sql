-- Callback attempts are numbered per order: 1, 2, 3, … in the order they are recorded, whoever sends
-- them (the workflow's deliveries, the account area's resends) and whatever their event (issue 51).
-- The number was the workflow's try count, or for a resend the highest so far plus one read without
-- a lock, so racing resends and a resend beside the workflow's retries wrote the same number twice.
-- An order whose numbers repeat or go backwards is renumbered in the order its attempts were
-- recorded (the others keep theirs), so that the unique index can hold every number from now on.
-- src/db/orders.ts gives the next number under the order's row lock.
WITH numbered AS (
  SELECT id, order_id, attempt,
         row_number() OVER (PARTITION BY order_id ORDER BY id) AS n,
         lag(attempt) OVER (PARTITION BY order_id ORDER BY id) AS previous
  FROM callback_attempts
), disordered AS (
  SELECT DISTINCT order_id FROM numbered WHERE attempt <= previous
)
UPDATE callback_attempts c SET attempt = numbered.n
FROM numbered JOIN disordered ON disordered.order_id = numbered.order_id
WHERE c.id = numbered.id;

CREATE UNIQUE INDEX callback_attempts_order_attempt ON callback_attempts (order_id, attempt);

-- Resends of an order's last callback from the account area, kept for the resend limit's window in
-- the database, so that every API process counts the same resends. Rows older than the window are
-- deleted when the order is resent again.
CREATE TABLE callback_resends (
  order_id bigint NOT NULL REFERENCES orders (id),
  sent_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX callback_resends_order ON callback_resends (order_id, sent_at);
