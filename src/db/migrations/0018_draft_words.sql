-- The draft's words with their times (the engine's, or a segment's spread over its words), kept in
-- the file store: the editor shows them and the delivered transcript keeps them across people's
-- edits (src/domain/workbench/wordTimes.ts). Null: a draft without times, or one made before.
ALTER TABLE orders ADD COLUMN draft_words_key text;
