-- Signed callbacks (Standard Webhooks): each account's signing secret `whsec_<base64>`, sealed with
-- the service key like the API token copy. During a rotation the previous secret also signs until
-- webhook_secret_previous_until. Accounts older than this migration get a secret on first use.
ALTER TABLE accounts ADD COLUMN webhook_secret_encrypted text;
ALTER TABLE accounts ADD COLUMN webhook_secret_previous_encrypted text;
ALTER TABLE accounts ADD COLUMN webhook_secret_previous_until timestamptz;
