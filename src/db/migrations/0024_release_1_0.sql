-- 1.0.0 (issue 54): the data of orders from 0.x brought to the shape 1.0's code reads, which knows no
-- other. 1.0 does not take over orders 0.x left open (CHANGELOG.md): their tasks, held by a child
-- workflow named as the task, can no longer be worked and are closed; every task names its workflow.
UPDATE tasks SET status = 'closed', closed_at = now(), claimed_by = NULL WHERE workflow_id IS NULL AND status IN ('waiting', 'claimed', 'sent_back');
UPDATE tasks SET workflow_id = id WHERE workflow_id IS NULL;
ALTER TABLE tasks ALTER COLUMN workflow_id SET NOT NULL;

-- A work plan states its stages: the work, its reviews (one, or the second that additional_review
-- pays for), and the aligner's timing, where 0.x plans said the reviews and the timing apart.
UPDATE orders SET plan = jsonb_set(
    (plan #- '{work,reviews}') #- '{work,timing}',
    '{work,stages}',
    jsonb_build_array('work')
      || coalesce(plan -> 'work' -> 'reviews', CASE WHEN params ->> 'additional_review' = 'true' THEN '["review", "second_review"]'::jsonb ELSE '["review"]'::jsonb END)
      || CASE WHEN plan -> 'work' ->> 'timing' = 'aligner' THEN '["aligner_timing"]'::jsonb ELSE '[]'::jsonb END)
  WHERE plan ? 'work' AND NOT (plan -> 'work' ? 'stages');

-- When this version first ran on this database: workflows started before it are 0.x's, which it
-- does not take over (`order-ops patches` counts those still open).
CREATE TABLE service_releases (
  version text PRIMARY KEY,
  released_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO service_releases (version) VALUES ('1.0.0');
