-- The machine draft's doubtful words (the speech engine's confidence under 0.5), kept with the
-- draft paragraphs that hold them (src/domain/doubts.ts): the editor marks them, and the delivery
-- measures whether people fixed them. Orders without an engine draft, or before this, have none.
ALTER TABLE orders ADD COLUMN draft_doubts jsonb;
