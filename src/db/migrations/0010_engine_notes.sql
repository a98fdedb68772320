-- What the engine found that changed how an order was fulfilled (the spoken language differs from
-- the ordered one: Whisper's English translation delivered, or a person needed), for order-ops show
-- and the account area's timeline. Orders before this migration have none.
ALTER TABLE orders ADD COLUMN engine_note text;
ALTER TABLE orders ADD COLUMN engine_noted_at timestamptz;
