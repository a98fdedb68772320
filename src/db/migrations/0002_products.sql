-- Every product: AI subscription minutes, who is working on an order, the proofreading hand-off.

-- AI transcription subscription minutes; they pay for AI orders before the wallet does.
ALTER TABLE accounts ADD COLUMN ai_minutes integer NOT NULL DEFAULT 0 CHECK (ai_minutes >= 0);

-- Minutes moved by an entry: used (negative) by a charge, returned by a refund, added by a grant.
ALTER TABLE ledger_entries ADD COLUMN ai_minutes integer NOT NULL DEFAULT 0;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('topup', 'charge', 'refund', 'grant'));

-- Who a paid order waits for: 'operator' (a person with order-ops) or 'engine' (a speech engine).
ALTER TABLE orders ADD COLUMN assignee text NOT NULL DEFAULT 'operator' CHECK (assignee IN ('operator', 'engine'));
-- Input files kept for the order (a transcript to proofread or align, a document to translate).
ALTER TABLE orders ADD COLUMN input_files jsonb NOT NULL DEFAULT '{}';
-- A proofreading order replaced by a human transcription order, and that order's parent.
ALTER TABLE orders ADD COLUMN retranscribed_order_id bigint REFERENCES orders(id);
ALTER TABLE orders ADD COLUMN parent_order_id bigint REFERENCES orders(id);

DROP INDEX orders_status;
CREATE INDEX orders_pending ON orders (status, assignee, product, id);
