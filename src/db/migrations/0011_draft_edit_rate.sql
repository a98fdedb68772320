-- How much of the machine draft the people changed (word edit distance ÷ the delivered words), kept
-- when a workbench order delivers; for order-ops show and the account area's timeline.
ALTER TABLE orders ADD COLUMN draft_edit_rate double precision;
