// A task's own child workflow, `task-<order>-<name>`: how orders placed before the tasksHeldByOrder
// patch hold their tasks (since it, the order's workflow holds them: heldTask.ts). The lease is the
// workers' TASK_LEASE_MINUTES, answered by openTask; tasks opened before it answered keep their input's.
import * as wf from '@temporalio/workflow';
import { taskStateQuery, type TaskInput, type TaskOutcome } from '../contracts/tasks.js';
import { HeldTask, wireTaskUpdates } from './heldTask.js';
import { patched } from './patches.js';
import { opening, persistent as records } from './activities.js';

export async function taskWorkflow(input: TaskInput): Promise<TaskOutcome> {
  const task = new HeldTask(input);
  wf.setHandler(taskStateQuery, () => task.state());
  wireTaskUpdates(() => task);
  const outcome = await task.run(() => (patched('openTaskLocally') ? opening : records).openTask(input));
  await wf.condition(wf.allHandlersFinished);
  return outcome;
}
