// The old branch of the tasksHeldByOrder patch, kept whole and apart for orders placed before it
// (docs/decisions.md, Patches: removed with the patch once `order-ops patches` says no open workflow
// needs it). Each task was a child workflow of its own, `task-<order>-<name>`, opened after the
// order's draft was made; since the patch the order's workflow holds its tasks (heldTask.ts) and the
// draft's activity opens them. The current path calls in here by one line where it forks.
import * as wf from '@temporalio/workflow';
import { taskStateQuery, type TaskInput, type TaskOutcome } from '../../contracts/tasks.js';
import { HeldTask, wireTaskUpdates } from '../heldTask.js';
import { patched } from '../patches.js';
import { engineFor, failureReason, opening, persistent as records } from '../activities.js';
import type { WorkbenchOrder } from '../workbench.js';

/**
 * A task's own workflow. The lease is the workers' TASK_LEASE_MINUTES, answered by openTask; tasks
 * opened before it answered keep their input's.
 */
export async function taskWorkflow(input: TaskInput): Promise<TaskOutcome> {
  const task = new HeldTask(input);
  wf.setHandler(taskStateQuery, () => task.state());
  wireTaskUpdates(() => task);
  const outcome = await task.run(() => (patched('openTaskLocally') ? opening : records).openTask(input));
  await wf.condition(wf.allHandlersFinished);
  return outcome;
}

/** A task as its own child workflow, named as the task. */
export const taskAsChild = (input: TaskInput): Promise<TaskOutcome> => wf.executeChild(taskWorkflow, { workflowId: input.taskId, args: [input] });

/** The draft the first worker starts from, made before the tasks open; best effort: without it the editor starts empty. */
export async function draftOf({ order }: WorkbenchOrder): Promise<string> {
  if (order.work.draft === 'none') return '';
  try {
    if (order.work.draft === 'source') return await records.sourceDraft({ orderId: order.id });
    return await engineFor(order).draftTranscript({ orderId: order.id });
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    wf.log.warn('no machine draft: the work starts from an empty editor', { orderId: order.id, error: failureReason(err) });
    return '';
  }
}
