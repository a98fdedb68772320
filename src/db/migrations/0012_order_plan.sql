-- What placement fixed for the order from its product and parameters (result kinds, fulfilment,
-- turnaround, the workbench plan with its review stages): read by activities, web and CLI instead of
-- being worked out again. Older rows have none and are worked out from the product, as before.
ALTER TABLE orders ADD COLUMN plan jsonb;
