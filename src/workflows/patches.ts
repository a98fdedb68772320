// Every patch of the workflows in one list: the id (its marker in histories), the day it shipped,
// what it changed, and the histories that replay the code before it. The plan for each is the
// patching-api sample's: `patched(id)` → `deprecatePatch(id)` once no open workflow started before
// the patch can still reach it → the old branch removed once no open workflow has the marker either.
// `order-ops patches` counts, per patch, the open order and task workflows started before it: a
// patch whose count is zero on a deployment may be deprecated there (docs/decisions.md, Patches).
import * as wf from '@temporalio/workflow';
import { STAGES, type TaskStage } from '../contracts/tasks.js';

export interface PatchInfo {
  /** The marker's id: never changes. */
  id: string;
  /** The day it shipped (UTC): workflows started before it run the old branch. */
  since: string;
  /** What the new branch does. */
  change: string;
}

export const PATCHES = {
  handOverFromWorkflow: {
    id: 'hand-over-from-workflow',
    since: '2026-11-22',
    change: 'the workflow hands an engine order it cannot fulfil to a person before the database lists it',
  },
  chargeLocalActivity: { id: 'charge-local-activity', since: '2026-11-23', change: 'the charge runs as a local activity in the accepting workflow task' },
  lateOrderTimer: { id: 'late-order-timer', since: '2026-11-23', change: 'a timer at the delivery estimate marks an order still open late' },
  callbackBackoff: { id: 'callback-backoff', since: '2026-11-24', change: 'callback attempts spread by jittered exponential back-off' },
  workbench: { id: 'workbench', since: '2026-11-25', change: 'orders with a work plan run the workbench (drafts, tasks, reviews)' },
  leaseCountsFromClaim: {
    id: 'lease-counts-from-claim',
    since: '2026-11-25',
    change: "a task's lease counts saves from its claim, not from the database's count",
  },
  timingByAligner: { id: 'timing-by-aligner', since: '2026-11-25', change: "the approved text of an 'aligner' plan is timed by the forced-alignment engine" },
  automaticTranscriptCheck: {
    id: 'automatic-transcript-check',
    since: '2026-11-25',
    change: "a proofreading order's supplied transcript is checked against the engine's first",
  },
  aiTranslationInWorkbench: {
    id: 'ai-translation-in-workbench',
    since: '2026-11-25',
    change: 'an AI order in a language no engine translates the speech into goes to a translator',
  },
  sendBackToEnabledWorker: { id: 'send-back-to-enabled-worker', since: '2026-11-26', change: 'a send-back to a worker disabled meanwhile waits in the queue' },
  secondReview: { id: 'second-review', since: '2026-11-26', change: 'additional_review runs a second review stage after the first approves' },
  openTaskLocally: { id: 'open-task-locally', since: '2026-11-26', change: "a task's row is opened by a local activity in its first workflow task" },
  reestimateForPeople: {
    id: 'reestimate-for-people',
    since: '2026-11-26',
    change: 'an engine order handed to people gets a delivery estimate from the turnaround of their work',
  },
  tasksHeldByOrder: {
    id: 'tasks-held-by-order',
    since: '2026-11-26',
    change: "the order's workflow holds its tasks (no child workflow per task), and the draft's activity opens the work's tasks",
  },
  lockedQualityCheckClose: {
    id: 'locked-quality-check-close',
    since: '2026-11-28',
    change: "the window closing an undecided quality check holds the order's lock: a decision sent meanwhile is refused, not applied and overwritten",
  },
  typedWordsByAligner: {
    id: 'typed-words-by-aligner',
    since: '2026-11-28',
    change: 'the words people typed into a timed draft are timed by the forced-alignment engine when the work is approved',
  },
  typedWordsAlignedAtSubmit: {
    id: 'typed-words-aligned-at-submit',
    since: '2026-11-28',
    change: 'the words a transcriber typed are timed by the aligner when the work is submitted, and the review starts from those times',
  },
} as const satisfies Record<string, PatchInfo>;

export type PatchName = keyof typeof PATCHES;

/**
 * The patches an order started since the baseline runs under one marker. The SDK records each
 * patch an order first reaches as a marker and an upsert of TemporalChangeVersion: four of each in
 * a human order's first workflow task, 8 of its 23 history events and four of the server's
 * visibility writes (docs/benchmarks.md). The baseline's marker, asked for once as the order starts,
 * stands for every patch it names. Orders started before it replay without its marker and ask for
 * each patch as they did. It names its patches: one listed later above is asked for by its own
 * marker, as any patch.
 */
export const BASELINE = {
  id: 'patch-baseline-2026-11-27',
  since: '2026-11-27',
  change: 'an order started since runs every patch before it under this one marker',
  covers: [
    'handOverFromWorkflow',
    'chargeLocalActivity',
    'lateOrderTimer',
    'callbackBackoff',
    'workbench',
    'leaseCountsFromClaim',
    'timingByAligner',
    'automaticTranscriptCheck',
    'aiTranslationInWorkbench',
    'sendBackToEnabledWorker',
    'secondReview',
    'openTaskLocally',
    'reestimateForPeople',
    'tasksHeldByOrder',
  ],
} as const satisfies PatchInfo & { covers: readonly PatchName[] };

const COVERED: ReadonlySet<PatchName> = new Set(BASELINE.covers);

/** Every marker a workflow may record: the patches, then the baseline (what `order-ops patches` counts). */
export const PATCH_MARKERS: readonly PatchInfo[] = [...Object.values(PATCHES), BASELINE];

/**
 * Whether this run started on code with the baseline. Module state is the run's own: the SDK
 * evaluates the bundle's modules again for each workflow.
 */
let onBaseline = false;

/**
 * The order's workflow asks for the baseline once, first, before anything can ask for a patch: a
 * new order records its marker; a run that started before replays its first task without it and
 * stays off it to its end. (Asked again once live, Temporal would say yes: the answer is kept here.)
 */
export function askForBaseline(): void {
  onBaseline = wf.patched(BASELINE.id);
}

/** Whether this workflow runs the code of `name`: under the baseline, or by Temporal's `patched` with the patch's listed id. */
export const patched = (name: PatchName): boolean => (onBaseline && COVERED.has(name)) || wf.patched(PATCHES[name].id);

/** Whether this run has a stage of the workbench: one shipped by a patch (its STAGES row names it) only where the run has the patch. */
export function stageShipped(stage: TaskStage): boolean {
  const row = STAGES[stage];
  // The row's patch is a literal: a name this list lacks fails the type check here.
  return !('patch' in row) || patched(row.patch);
}
