// One human stage of an order (the work on a part, a review, a quality check) as the workflow that
// holds it sees it: the claim, the outcome and the lease. The claim lives in a workflow so that two
// workers racing get exactly one claim (the update validator runs in the workflow's single thread
// and sees the first claim taken). Autosaves go to the database; the lease timer reads their count
// there and returns a task nobody saved for the lease's length to the queue, its draft kept.
//
// The order's own workflow holds its tasks (`TaskDesk`, several at once for parts), routed by the
// task id the updates carry.
import * as wf from '@temporalio/workflow';
import { ApplicationFailure, CancellationScope, isCancellation } from '@temporalio/workflow';
import { FAILURE_TYPES } from '../../contracts/failures.js';
import {
  claimTaskUpdate,
  releaseTaskUpdate,
  reviewTaskUpdate,
  submitTaskUpdate,
  type ClaimTask,
  type ReleaseTask,
  type ReviewTask,
  type SubmitTask,
  type TaskInput,
  type TaskOutcome,
  type TaskState,
  type TaskStatus,
} from '../../contracts/tasks.js';
import { skillCovers } from '../../domain/humanWork/skills.js';
import { peopleWork } from '../activities.js';

export class HeldTask {
  status: TaskStatus;
  claimedBy: number | null;
  /** Changes with every claim and release: a lease timer of an earlier claim stops. */
  private claimEpoch = 0;
  private outcome: TaskOutcome | undefined;
  /** Updates of this task still running: its outcome is returned only once they have recorded it. */
  private running = 0;

  constructor(readonly input: TaskInput) {
    this.status = input.assignedTo !== undefined ? 'claimed' : 'waiting';
    this.claimedBy = input.assignedTo ?? null;
  }

  get taskId(): string {
    return this.input.taskId;
  }

  state(): TaskState {
    return { status: this.status, claimedBy: this.claimedBy };
  }

  /**
   * Opens the task (`open` writes its row and answers the lease it runs with: the workers'
   * TASK_LEASE_MINUTES), then watches its leases until its outcome. Cancelled (the order settled
   * without it: an operator completed it, or it was refunded), it closes its row.
   */
  async run(open: () => Promise<{ leaseMs: number } | undefined>): Promise<TaskOutcome> {
    try {
      const leaseMs = (await open())?.leaseMs ?? this.input.leaseMs;
      await this.watchLeases(leaseMs);
      await wf.condition(() => this.running === 0);
      return this.outcome!;
    } catch (err) {
      if (isCancellation(err)) {
        this.status = 'closed';
        await CancellationScope.nonCancellable(() => peopleWork.closeTask({ taskId: this.taskId }));
      }
      throw err;
    }
  }

  validateClaim({ skills }: ClaimTask): void {
    if (this.status !== 'waiting')
      throw refusal(this.status === 'claimed' ? `task ${this.taskId} is already claimed` : `task ${this.taskId} is ${this.status}`);
    if (!skillCovers(skills, this.input.skill)) throw refusal(`task ${this.taskId} needs the skill ${this.input.skill}`);
  }

  claim({ workerId }: ClaimTask): Promise<TaskState> {
    return this.recording(async () => {
      this.status = 'claimed';
      this.claimedBy = workerId;
      this.claimEpoch += 1;
      await peopleWork.recordTaskClaim({ taskId: this.taskId, workerId });
    });
  }

  validateSubmit({ workerId, text }: SubmitTask): void {
    if (this.input.stage !== 'work') throw refusal(`task ${this.taskId} is a ${this.input.stage}: approve it or send it back`);
    this.requireHeldBy(workerId);
    if (text.trim() === '') throw refusal('the text is empty');
  }

  submit({ workerId, text }: SubmitTask): Promise<TaskState> {
    return this.recording(async () => {
      this.status = 'submitted';
      await peopleWork.recordTaskOutcome({ taskId: this.taskId, status: this.status, workerId, text });
      this.outcome = { workerId, text };
    });
  }

  validateReview({ workerId, text, decision, note }: ReviewTask): void {
    if (this.input.stage === 'work') throw refusal(`task ${this.taskId} is work: submit it`);
    this.requireHeldBy(workerId);
    if (text.trim() === '') throw refusal('the text is empty');
    if (decision === 'send_back' && !note?.trim()) throw refusal('sending work back needs a note for the worker');
  }

  review({ workerId, text, decision, note }: ReviewTask): Promise<TaskState> {
    return this.recording(async () => {
      this.status = decision === 'approve' ? 'approved' : 'sent_back';
      await peopleWork.recordTaskOutcome({ taskId: this.taskId, status: this.status, workerId, text, ...(note !== undefined ? { note } : {}) });
      this.outcome = { workerId, text, decision, ...(note !== undefined ? { note } : {}) };
    });
  }

  validateRelease({ to }: ReleaseTask): void {
    if (this.status !== 'claimed' && !(this.status === 'waiting' && to))
      throw refusal(`task ${this.taskId} is ${this.status}; only a claimed task can be released`);
    if (to && !skillCovers(to.skills, this.input.skill)) throw refusal(`worker ${to.workerId} lacks the skill ${this.input.skill}`);
  }

  release({ reason, to }: ReleaseTask): Promise<TaskState> {
    wf.log.info('task released', { taskId: this.taskId, orderId: this.input.orderId, from: this.claimedBy, to: to?.workerId, reason });
    if (to) return this.claim({ taskId: this.taskId, workerId: to.workerId, skills: to.skills });
    return this.recording(async () => {
      this.status = 'waiting';
      this.claimedBy = null;
      this.claimEpoch += 1;
      await peopleWork.recordTaskRelease({ taskId: this.taskId, expired: false });
    });
  }

  private requireHeldBy(workerId: number): void {
    if (this.status !== 'claimed' || this.claimedBy !== workerId) throw refusal(`task ${this.taskId} is not claimed by you (it is ${this.status})`);
  }

  private async recording(change: () => Promise<void>): Promise<TaskState> {
    this.running += 1;
    try {
      await change();
      return this.state();
    } finally {
      this.running -= 1;
    }
  }

  /**
   * Until the task is done: while claimed, a timer at the lease's end; when it fires, saves made
   * since the last look renew the lease from the last save, none return the task to the queue.
   */
  private async watchLeases(leaseMs: number): Promise<void> {
    while (!this.outcome) {
      if (this.status !== 'claimed') {
        await wf.condition(() => this.status === 'claimed' || this.outcome !== undefined);
        continue;
      }
      const epoch = this.claimEpoch;
      const claimChanged = () => this.claimEpoch !== epoch || this.status !== 'claimed';
      // A claim sets the saves to zero.
      let seenSaves = 0;
      let wait = leaseMs;
      for (;;) {
        if (await wf.condition(claimChanged, wait)) break;
        const lease = await peopleWork.taskLease({ taskId: this.taskId });
        if (claimChanged()) break;
        if (lease.saves > seenSaves) {
          seenSaves = lease.saves;
          wait = Math.max(1_000, leaseMs - lease.msSinceSave);
          continue;
        }
        wf.log.info('task lease expired: back in the queue', { taskId: this.taskId, orderId: this.input.orderId, workerId: this.claimedBy });
        this.status = 'waiting';
        this.claimedBy = null;
        this.claimEpoch += 1;
        await peopleWork.recordTaskRelease({ taskId: this.taskId, expired: true });
        break;
      }
    }
  }
}

/** The task updates on the order's workflow, each for the task `find` names by the id the update carries. */
export function wireTaskUpdates(find: (taskId: string) => HeldTask): void {
  wf.setHandler(claimTaskUpdate, (u) => find(u.taskId).claim(u), { validator: (u) => find(u.taskId).validateClaim(u) });
  wf.setHandler(submitTaskUpdate, (u) => find(u.taskId).submit(u), { validator: (u) => find(u.taskId).validateSubmit(u) });
  wf.setHandler(reviewTaskUpdate, (u) => find(u.taskId).review(u), { validator: (u) => find(u.taskId).validateReview(u) });
  wf.setHandler(releaseTaskUpdate, (u) => find(u.taskId).release(u), { validator: (u) => find(u.taskId).validateRelease(u) });
}

/** The tasks an order's workflow holds, by id; a task stays once done, so a late update hears its status. */
export class TaskDesk {
  private readonly tasks = new Map<string, HeldTask>();

  hold(input: TaskInput): HeldTask {
    const task = new HeldTask(input);
    this.tasks.set(input.taskId, task);
    return task;
  }

  find(taskId: string): HeldTask {
    const task = this.tasks.get(taskId);
    if (!task) throw refusal(`task ${taskId} is not open on this order`);
    return task;
  }
}

export function refusal(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FAILURE_TYPES.orderState, message, nonRetryable: true });
}
