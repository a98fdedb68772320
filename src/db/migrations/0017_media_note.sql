-- An order whose kept media is longer than the length paid for (its file changed after the quote,
-- or its header understated it) is worked up to that length; the order says so (src/orders/orderMedia.ts).
ALTER TABLE orders ADD COLUMN media_note text;
ALTER TABLE orders ADD COLUMN media_noted_at timestamptz;
