// Tasks of the workbench: each human stage of an order (the work on one part of its media, a
// review, a quality check), `task-<order>-<name>`, held by a workflow: the order's own since the
// tasksHeldByOrder patch, before it a child workflow named as the task (the task row says which).
// Claims, submissions, reviews and releases are updates on that workflow, naming the task; drafts
// are saved in the database (src/db/tasks.ts) and renew the claim's lease there, so an autosave
// never touches Temporal.
import { defineQuery, defineUpdate } from '@temporalio/workflow';

/** What the service knows of a stage of the workbench: one row of STAGES. */
export interface StageRow {
  /** What the worker's queue and editor call it. */
  label: string;
  /** A review stage: rounds of review and fix until its reviewer approves, and the task names of each round (`review-2`, `fix-2`). */
  rounds?: { review: string; fix: string };
  /** The stages of the same order whose submitters may not take it: nobody checks their own work (a reviewer who sent work back may review the fix). */
  barredBy: readonly string[];
  /** The pay-rates field that pays it (config/pay-rates.json); a product without the field pays its reviewer's rate. `cents` is the work's, a language's own rate first. */
  pay: 'cents' | 'review_cents' | 'second_review_cents';
  /** The account timeline's words for a review's verdict. */
  timeline?: string;
  /** The workflow patch that shipped the stage: orders started before it skip it (src/workflows/patches.ts). */
  patch?: string;
}

/**
 * The stages of the workbench, one row each, read by the workflow (rounds, patch), pay (pay), the
 * queue's SQL and the own-work rule (barredBy) and the pages (label, timeline): the work (a part, a
 * fix), a review until approved, the second review an order with `additional_review` pays for
 * (after the first approves), and the quality check. Adding a stage is a row here, its pay rate
 * and its patch.
 */
export const STAGES = {
  work: { label: 'Work', barredBy: [], pay: 'cents' },
  review: { label: 'Review', rounds: { review: 'review', fix: 'fix' }, barredBy: ['work'], pay: 'review_cents', timeline: 'Review' },
  second_review: {
    label: 'Second review',
    rounds: { review: 'second-review', fix: 'second-fix' },
    barredBy: ['work', 'review'],
    pay: 'second_review_cents',
    timeline: 'Second review (the additional review)',
    patch: 'secondReview',
  },
  qc: { label: 'Quality check', barredBy: ['work', 'review', 'second_review', 'qc'], pay: 'review_cents' },
} as const satisfies Record<string, StageRow>;

export type TaskStage = keyof typeof STAGES;
export type StageTable = Readonly<Record<string, StageRow>>;
export const TASK_STAGES = Object.keys(STAGES) as TaskStage[];
/** The review stages a product may declare after the work (WorkPlan.reviews), in the order they run: the rows with rounds. */
export type ReviewStage = { [S in TaskStage]: (typeof STAGES)[S] extends { rounds: object } ? S : never }[TaskStage];
/** Whether a stage of a plan is a review stage (a row with rounds). */
export const isReviewStage = (stage: string): stage is ReviewStage => stage in STAGES && 'rounds' in STAGES[stage as TaskStage];
/** A row bars only stages of the table: a misspelt one fails the type check here. */
export const STAGES_BAR_ONLY_STAGES: (typeof STAGES)[TaskStage]['barredBy'][number] extends TaskStage ? true : never = true;
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
