-- Seeds $2 orders of account $1 in one statement (bench/millionOrders.mjs; the listing test seeds a
-- few thousand with it). Ids come from the service's own sequence, so orders placed later follow
-- on; nine in ten are finished, one in ten is still paid, as an account's history would be.
INSERT INTO orders (id, account_id, product, status, price_cents, seconds, params, paid_at, delivery_estimate, finished_at, created_at)
SELECT nextval('order_ids'), $1::integer, 'transcription',
       CASE WHEN g % 10 = 0 THEN 'paid' ELSE 'finished' END,
       1500, 600,
       jsonb_build_object('url', 'https://media.example.com/' || g || '.wav', 'language', 'english',
                          'text_format', 'clean_verbatim', 'timestamping', 'not_required',
                          'turnaround_time', '5_days', 'number_of_speakers', '1_or_2', 'comment', 'seeded ' || g),
       t, t + interval '5 days',
       CASE WHEN g % 10 = 0 THEN NULL ELSE t + interval '2 days' END,
       t
FROM generate_series(1, $2::integer) AS g,
     LATERAL (SELECT now() - ($2::integer - g) * interval '1 second' AS t) AS at
