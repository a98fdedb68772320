// The stages of an order's people work, and its tasks. Every stage is one row of STAGES: those people
// do are tasks (`task-<order>-<name>`), held by the order's workflow (the work on one part of its
// media, a review, a quality check); the aligner's timing of the approved text is a stage the
// machine does, in a plan but never a task. Claims, submissions, reviews and releases are updates on
// the order's workflow, naming the task; drafts are saved in the database (src/db/tasks.ts) and
// renew the claim's lease there, so an autosave never touches Temporal.
import { defineQuery, defineUpdate } from '@temporalio/workflow';

/** A stage people do: a task of the workbench. */
export interface TaskStageRow {
  /** What the worker's queue and editor, and the account's timeline, call it. */
  label: string;
  /** A review stage: rounds of review and fix until its reviewer approves, and the task names of each round (`review-2`, `fix-2`). */
  rounds?: { review: string; fix: string };
  /** The stages of the same order whose submitters may not take it: nobody checks their own work (a reviewer who sent work back may review the fix). */
  barredBy: readonly string[];
  /** The pay-rates field that pays it (config/pay-rates.json); a product without the field pays its reviewer's rate. `cents` is the work's, a language's own rate first. */
  pay: 'cents' | 'review_cents' | 'second_review_cents';
  /** The account timeline's words for a review's verdict. */
  timeline?: string;
  /** A plan declares it (false: the quality check, which follows a finish when the order is picked). */
  inPlan: boolean;
}

/** A stage the machine does in a plan: no task, no pay. */
export interface MachineStageRow {
  label: string;
  machine: true;
}

export type StageRow = TaskStageRow | MachineStageRow;

/**
 * Every stage of an order's people work, one row each, read by the workflow (rounds), pay (pay), the
 * queue's SQL and the own-work rule (barredBy), the products' plans (inPlan) and the pages (label,
 * timeline): the work (a part, a fix), a review until approved, the second review an order with
 * `additional_review` pays for (after the first approves), the aligner's timing (captions typed
 * without times), and the quality check. Adding a stage is a row here and its pay rate.
 */
export const STAGES = {
  work: { label: 'Work', barredBy: [], pay: 'cents', inPlan: true },
  review: { label: 'Review', rounds: { review: 'review', fix: 'fix' }, barredBy: ['work'], pay: 'review_cents', timeline: 'Review', inPlan: true },
  second_review: {
    label: 'Second review',
    rounds: { review: 'second-review', fix: 'second-fix' },
    barredBy: ['work', 'review'],
    pay: 'second_review_cents',
    timeline: 'Second review (the additional review)',
    inPlan: true,
  },
  aligner_timing: { label: 'Timing by the aligner', machine: true },
  qc: { label: 'Quality check', barredBy: ['work', 'review', 'second_review', 'qc'], pay: 'review_cents', inPlan: false },
} as const satisfies Record<string, StageRow>;

type Stage = keyof typeof STAGES;
export type StageTable = Readonly<Record<string, StageRow>>;
/** The stages people do, each a task. */
export type TaskStage = { [S in Stage]: (typeof STAGES)[S] extends { machine: true } ? never : S }[Stage];
export const TASK_STAGES = (Object.keys(STAGES) as Stage[]).filter((s): s is TaskStage => !('machine' in STAGES[s]));
/** The stages a plan declares, in the order they run (the work, each review, the aligner's timing). */
export type PlanStage = { [S in Stage]: (typeof STAGES)[S] extends { inPlan: false } ? never : S }[Stage];
/** The review stages: the rows with rounds. */
export type ReviewStage = { [S in Stage]: (typeof STAGES)[S] extends { rounds: object } ? S : never }[Stage];
/** Whether a stage of a plan is a review stage (a row with rounds). */
export const isReviewStage = (stage: string): stage is ReviewStage => stage in STAGES && 'rounds' in STAGES[stage as Stage];
/** A row's task columns, where it is a task (undefined for the machine's stages and names the table lacks). */
export const taskRowOf = (stage: string, stages: StageTable = STAGES): TaskStageRow | undefined => {
  const row = stages[stage];
  return row && !('machine' in row) ? row : undefined;
};
/** A row bars only tasks of the table: a misspelt one fails the type check here. */
export const STAGES_BAR_ONLY_TASKS: (typeof STAGES)[TaskStage]['barredBy'][number] extends TaskStage ? true : never = true;
export type TaskStatus = 'waiting' | 'claimed' | 'submitted' | 'approved' | 'sent_back' | 'closed';

/** The id of an order's task `name` (`work`, `part-2`, `review-1`, `qc`). */
export const taskIdOf = (orderId: number, name: string): string => `task-${orderId}-${name}`;

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
  /** The workflow holding the task (its order's), stored on its row. */
  workflowId: string;
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

/** Which of the order's tasks an update is for. */
interface ForTask {
  taskId: string;
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
/** The state of the order's task named. */
export const taskStateQuery = defineQuery<TaskState, [taskId: string]>('taskState');
