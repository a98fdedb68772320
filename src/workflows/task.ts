// A task's own child workflow, `task-<order>-<name>`: how orders placed before the tasksHeldByOrder
// patch hold their tasks (since it, the order's workflow holds them: heldTask.ts). The lease is the
// workers' TASK_LEASE_MINUTES, answered by openTask; tasks opened before it answered keep their input's.
import * as wf from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { taskStateQuery, type TaskInput, type TaskOutcome } from '../contracts/tasks.js';
import { HeldTask, wireTaskUpdates } from './heldTask.js';
import { patched } from './patches.js';

type Activities = ReturnType<typeof createActivities>;

const records = wf.proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumInterval: '1 minute' } });
// Opening the task is one short insert: as a local activity it runs inside the task's first
// workflow task, with no activity task and no second workflow task behind each order's placement.
const opening = wf.proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumInterval: '1 minute' } });

export async function taskWorkflow(input: TaskInput): Promise<TaskOutcome> {
  const task = new HeldTask(input);
  wf.setHandler(taskStateQuery, () => task.state());
  wireTaskUpdates(() => task);
  const outcome = await task.run(() => (patched('openTaskLocally') ? opening : records).openTask(input));
  await wf.condition(wf.allHandlersFinished);
  return outcome;
}
