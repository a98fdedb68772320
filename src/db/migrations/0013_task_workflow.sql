-- The workflow that holds a task's claim: the order's own (`order-<id>`) for tasks opened since the
-- order workflow holds its tasks; null for tasks opened before, each held by a child workflow named
-- as the task (`task-<order>-<name>`).
ALTER TABLE tasks ADD COLUMN workflow_id text;
