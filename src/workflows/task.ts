// One human stage of an order (the work on a part, a review, a quality check): a child workflow of
// the order, `task-<order>-<name>`. The claim lives here, so that two workers racing get exactly
// one claim (the update validator runs in the workflow's single thread and sees the first claim
// taken). Autosaves go to the database; the lease timer reads their count there and returns a
// task nobody saved for the lease's length to the queue, its draft kept. The length is the workers'
// TASK_LEASE_MINUTES, answered by openTask; tasks opened before it answered keep their input's.
import * as wf from '@temporalio/workflow';
import { ApplicationFailure, CancellationScope, isCancellation } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { FAILURE_TYPES } from '../contracts/failures.js';
import {
  claimTaskUpdate,
  releaseTaskUpdate,
  reviewTaskUpdate,
  submitTaskUpdate,
  taskStateQuery,
  type TaskInput,
  type TaskOutcome,
  type TaskState,
  type TaskStatus,
} from '../contracts/tasks.js';
import { skillCovers } from '../domain/workbench.js';
import { patched } from './patches.js';

type Activities = ReturnType<typeof createActivities>;

const records = wf.proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});
// Opening the task is one short insert: as a local activity it runs inside the task's first
// workflow task, with no activity task and no second workflow task behind each order's placement.
const opening = wf.proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumInterval: '1 minute' } });

export async function taskWorkflow(input: TaskInput): Promise<TaskOutcome> {
  const { taskId } = input;
  let status: TaskStatus = input.assignedTo !== undefined ? 'claimed' : 'waiting';
  let claimedBy: number | null = input.assignedTo ?? null;
  /** Changes with every claim and release: a lease timer of an earlier claim stops. */
  let claimEpoch = 0;
  let outcome: TaskOutcome | undefined;
  /** How long a claim lasts without a save (set once the task is open). */
  let leaseMs = input.leaseMs;
  const state = (): TaskState => ({ status, claimedBy });

  const holds = (workerId: number) => {
    if (status !== 'claimed' || claimedBy !== workerId) throw refusal(`task ${taskId} is not claimed by you (it is ${status})`);
  };
  const claim = async (workerId: number) => {
    status = 'claimed';
    claimedBy = workerId;
    claimEpoch += 1;
    await records.recordTaskClaim({ taskId, workerId });
  };

  wf.setHandler(taskStateQuery, state);

  wf.setHandler(
    claimTaskUpdate,
    async ({ workerId }) => {
      await claim(workerId);
      return state();
    },
    {
      validator: ({ skills }) => {
        if (status !== 'waiting') throw refusal(status === 'claimed' ? `task ${taskId} is already claimed` : `task ${taskId} is ${status}`);
        if (!skillCovers(skills, input.skill)) throw refusal(`task ${taskId} needs the skill ${input.skill}`);
      },
    },
  );

  wf.setHandler(
    submitTaskUpdate,
    async ({ workerId, text }) => {
      status = 'submitted';
      await records.recordTaskOutcome({ taskId, status, workerId, text });
      outcome = { workerId, text };
      return state();
    },
    {
      validator: ({ workerId, text }) => {
        if (input.stage !== 'work') throw refusal(`task ${taskId} is a ${input.stage}: approve it or send it back`);
        holds(workerId);
        if (text.trim() === '') throw refusal('the text is empty');
      },
    },
  );

  wf.setHandler(
    reviewTaskUpdate,
    async ({ workerId, text, decision, note }) => {
      status = decision === 'approve' ? 'approved' : 'sent_back';
      await records.recordTaskOutcome({ taskId, status, workerId, text, ...(note !== undefined ? { note } : {}) });
      outcome = { workerId, text, decision, ...(note !== undefined ? { note } : {}) };
      return state();
    },
    {
      validator: ({ workerId, text, decision, note }) => {
        if (input.stage === 'work') throw refusal(`task ${taskId} is work: submit it`);
        holds(workerId);
        if (text.trim() === '') throw refusal('the text is empty');
        if (decision === 'send_back' && !note?.trim()) throw refusal('sending work back needs a note for the worker');
      },
    },
  );

  wf.setHandler(
    releaseTaskUpdate,
    async ({ reason, to }) => {
      wf.log.info('task released', { taskId, orderId: input.orderId, from: claimedBy, to: to?.workerId, reason });
      if (to) return claim(to.workerId).then(state);
      status = 'waiting';
      claimedBy = null;
      claimEpoch += 1;
      await records.recordTaskRelease({ taskId, expired: false });
      return state();
    },
    {
      validator: ({ to }) => {
        if (status !== 'claimed' && !(status === 'waiting' && to)) throw refusal(`task ${taskId} is ${status}; only a claimed task can be released`);
        if (to && !skillCovers(to.skills, input.skill)) throw refusal(`worker ${to.workerId} lacks the skill ${input.skill}`);
      },
    },
  );

  try {
    leaseMs = (await (patched('openTaskLocally') ? opening : records).openTask(input))?.leaseMs ?? input.leaseMs;
    await watchLeases();
    await wf.condition(wf.allHandlersFinished);
    return outcome!;
  } catch (err) {
    // The order settled without this task (an operator completed it, or it was refunded).
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => records.closeTask({ taskId }));
    throw err;
  }

  /**
   * Until the task is done: while claimed, a timer at the lease's end; when it fires, saves made
   * since the last look renew the lease from the last save, none return the task to the queue.
   */
  async function watchLeases(): Promise<void> {
    while (!outcome) {
      if (status !== 'claimed') {
        await wf.condition(() => status === 'claimed' || outcome !== undefined);
        continue;
      }
      const epoch = claimEpoch;
      // A claim sets the saves to zero; before that patch, the lease read the count at each claim.
      let seenSaves = patched('leaseCountsFromClaim') ? 0 : (await records.taskLease({ taskId })).saves;
      let wait = leaseMs;
      for (;;) {
        if (await wf.condition(() => claimEpoch !== epoch || status !== 'claimed', wait)) break;
        const lease = await records.taskLease({ taskId });
        if (claimEpoch !== epoch || status !== 'claimed') break;
        if (lease.saves > seenSaves) {
          seenSaves = lease.saves;
          wait = Math.max(1_000, leaseMs - lease.msSinceSave);
          continue;
        }
        wf.log.info('task lease expired: back in the queue', { taskId, orderId: input.orderId, workerId: claimedBy });
        status = 'waiting';
        claimedBy = null;
        claimEpoch += 1;
        await records.recordTaskRelease({ taskId, expired: true });
        break;
      }
    }
  }
}

function refusal(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FAILURE_TYPES.orderState, message, nonRetryable: true });
}
