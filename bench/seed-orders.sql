-- Seeds $2 orders of account $1 in one statement (bench/millionOrders.mjs; the listing test seeds a
-- few thousand with it). Ids come from the service's own sequence, so orders placed later follow
-- on; nine in ten are finished, one in ten is still paid, as an account's history would be. The
-- ledger stays true: a top-up of the orders' total, then one charge per order, so the balance is
-- what it was and the ledger audit holds. $3 is the plan the product gives these parameters (the
-- callers ask the product registry for it).
WITH seeded AS (
  INSERT INTO orders (id, account_id, product, status, price_cents, seconds, params, plan, paid_at, delivery_estimate, finished_at, created_at)
  SELECT nextval('order_ids'), $1::integer, 'transcription',
         CASE WHEN g % 10 = 0 THEN 'paid' ELSE 'finished' END,
         1500, 600,
         jsonb_build_object('url', 'https://media.example.com/' || g || '.wav', 'language', 'english',
                            'text_format', 'clean_verbatim', 'timestamping', 'not_required',
                            'turnaround_time', '5_days', 'number_of_speakers', '1_or_2', 'comment', 'seeded ' || g),
         $3::jsonb,
         t, t + interval '5 days',
         CASE WHEN g % 10 = 0 THEN NULL ELSE t + interval '2 days' END,
         t
  FROM generate_series(1, $2::integer) AS g,
       LATERAL (SELECT now() - ($2::integer - g) * interval '1 second' AS t) AS at
  RETURNING id, account_id, price_cents, created_at
), balance AS (
  SELECT balance_cents AS cents FROM accounts WHERE id = $1::integer
), topup AS (
  INSERT INTO ledger_entries (account_id, kind, amount_cents, balance_after_cents, note, created_at)
  SELECT $1::integer, 'topup', $2::bigint * 1500, cents + $2::bigint * 1500, 'seeded orders', now() - $2::integer * interval '1 second' - interval '1 second'
  FROM balance
)
INSERT INTO ledger_entries (account_id, order_id, kind, amount_cents, balance_after_cents, created_at)
SELECT account_id, id, 'charge', -price_cents,
       (SELECT cents FROM balance) + ($2::bigint - row_number() OVER (ORDER BY id)) * 1500, created_at
FROM seeded
