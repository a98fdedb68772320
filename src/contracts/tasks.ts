// Tasks of the workbench: each human stage of an order (the work on one part of its media, a
// review, a quality check), `task-<order>-<name>`, held by a workflow: the order's own since the
// tasksHeldByOrder patch, before it a child workflow named as the task (the task row says which).
// Claims, submissions, reviews and releases are updates on that workflow, naming the task; drafts
// are saved in the database (src/db/tasks.ts) and renew the claim's lease there, so an autosave
// never touches Temporal.
import { defineQuery, defineUpdate } from '@temporalio/workflow';

/**
 * The stages of the workbench: the work (a part, a fix), a review until approved, the second review
 * an order with `additional_review` pays for (after the first approves), and the quality check.
 */
export const TASK_STAGES = ['work', 'review', 'second_review', 'qc'] as const;
export type TaskStage = (typeof TASK_STAGES)[number];
/** The review stages a product may declare after the work (WorkPlan.reviews), in the order they run. */
export type ReviewStage = Extract<TaskStage, 'review' | 'second_review'>;
export type TaskStatus = 'waiting' | 'claimed' | 'submitted' | 'approved' | 'sent_back' | 'closed';

export const taskWorkflowId = (orderId: number, name: string): string => `task-${orderId}-${name}`;

export interface TaskInput {
  taskId: string;
  orderId: number;
  stage: TaskStage;
  skill: string;
  /** 1-based part number of the order's media; 0 for a task on the whole order. */
  partNo: number;
  /** The part of the media, in seconds. */
  span: { start: number; end: number };
  words: number;
  /** The order's delivery estimate: the queue lists the soonest first. */
  deadline: string;
  /** The text the editor starts from (machine draft, merged parts, work to review). */
  draftText: string;
  /** For a review: the text the work started from, for the diff. */
  baseText?: string;
  /** A task sent back goes to the worker who did it, with the reviewer's note. */
  assignedTo?: number;
  note?: string;
  leaseMs: number;
  /** The workflow holding the task, stored on its row; absent: the child workflow named `taskId`. */
  workflowId?: string;
}

export interface TaskOutcome {
  workerId: number;
  text: string;
  /** Reviews and quality checks: approved as it stands (text possibly edited), or sent back with a note. */
  decision?: 'approve' | 'send_back';
  note?: string;
}

export interface TaskState {
  status: TaskStatus;
  claimedBy: number | null;
}

/** Which task an update is for: a workflow holding several tasks (the order's) needs it; a task's own child workflow ignores it. */
interface ForTask {
  taskId?: string;
}
/** `skills`: the claiming worker's skills, as the API read them from the database. */
export type ClaimTask = ForTask & { workerId: number; skills: string[] };
export type SubmitTask = ForTask & { workerId: number; text: string };
export type ReviewTask = ForTask & { workerId: number; text: string; decision: 'approve' | 'send_back'; note?: string };
/** An operator (or the worker) gives the task back; `to` reassigns it at once. */
export type ReleaseTask = ForTask & { reason: string; to?: { workerId: number; skills: string[] } };
export const claimTaskUpdate = defineUpdate<TaskState, [ClaimTask]>('claimTask');
export const submitTaskUpdate = defineUpdate<TaskState, [SubmitTask]>('submitTask');
export const reviewTaskUpdate = defineUpdate<TaskState, [ReviewTask]>('reviewTask');
export const releaseTaskUpdate = defineUpdate<TaskState, [ReleaseTask]>('releaseTask');
/** A task's state: on the order's workflow, of the task named; on a task's own, of it. */
export const taskStateQuery = defineQuery<TaskState, [taskId?: string]>('taskState');
