-- Each callback attempt records the `webhook-id` it was sent with (docs/callbacks.md), so the account
-- pages show it and a resend of the last callback carries the same id. Attempts recorded before
-- this migration have none.
ALTER TABLE callback_attempts ADD COLUMN webhook_id text;
