-- A failed callback attempt records when the next one is due (jittered exponential back-off,
-- src/domain/callbackSchedule.ts), for `order-ops show` and the account area's order page. Attempts
-- recorded before this migration have none.
ALTER TABLE callback_attempts ADD COLUMN next_attempt_at timestamptz;
