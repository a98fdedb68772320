-- An engine order handed to people (no engine could do it): when, why, and so a new delivery
-- estimate from the turnaround of the people's work (delivery_estimate is moved then). Orders
-- before this migration, and orders never handed over, have none.
ALTER TABLE orders ADD COLUMN handed_over_at timestamptz;
ALTER TABLE orders ADD COLUMN handed_over_reason text;
