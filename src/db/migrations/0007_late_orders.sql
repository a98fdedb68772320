-- An order still open at its delivery estimate is marked late by its workflow's timer
-- (activity markOrderLate); `order-ops pending` lists late orders first. Orders marked before this
-- migration do not exist: the column starts empty.
ALTER TABLE orders ADD COLUMN late_at timestamptz;
