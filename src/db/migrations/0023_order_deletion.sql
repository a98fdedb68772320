-- Customers' data deleted when they say so (issue 53). An order's record stays for the bill (product,
-- seconds or words, price, dates, status) with `deleted_at`; its URLs, file names, comments,
-- vocabulary, texts and files go. `settled_at`: when it was finished, refunded, canceled or handed
-- on, from which `delete_after_seconds` counts. The account's rule applies to orders placed after it.
ALTER TABLE orders ADD COLUMN settled_at timestamptz;
ALTER TABLE orders ADD COLUMN delete_after_seconds bigint;
ALTER TABLE orders ADD COLUMN deleted_at timestamptz;
UPDATE orders SET settled_at = finished_at WHERE finished_at IS NOT NULL;
UPDATE orders o SET settled_at = l.created_at FROM ledger_entries l
  WHERE l.order_id = o.id AND l.kind = 'refund' AND o.settled_at IS NULL AND o.status IN ('refunded', 'canceled', 'retranscribed');
ALTER TABLE accounts ADD COLUMN delete_after_days integer;

-- Every file-store blob an order's work wrote or holds, named when it is written: a deletion removes
-- each one no other order still holds (the store is content-addressed: two orders of the same bytes
-- share a blob), replaced results and earlier drafts included. Filled here from what orders hold now.
CREATE TABLE order_blobs (
  order_id bigint NOT NULL,
  blob_key text NOT NULL,
  PRIMARY KEY (order_id, blob_key)
);
CREATE INDEX order_blobs_key ON order_blobs (blob_key);
INSERT INTO order_blobs (order_id, blob_key) SELECT order_id, blob_key FROM order_files ON CONFLICT DO NOTHING;
INSERT INTO order_blobs (order_id, blob_key) SELECT id, draft_words_key FROM orders WHERE draft_words_key IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO order_blobs (order_id, blob_key)
  SELECT o.id, f.value ->> 'key' FROM orders o CROSS JOIN LATERAL jsonb_each(o.input_files) f WHERE f.value ->> 'key' IS NOT NULL
  ON CONFLICT DO NOTHING;
