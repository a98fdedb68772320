// The human stages of an order in the workbench, as its plan declares them (`work.stages`): a draft,
// then in the declared order the work (one task per part of long media, in parallel, merged in time
// order) and each review stage (a review; a second review where the customer paid for one), each in
// rounds until its reviewer approves; the words a transcriber typed are timed by the aligner at each
// submission (alignSubmitted), and the aligner's timing of the approved text follows (alignerTiming,
// called by order/people.ts). Returns the approved text. The order's own workflow holds its
// tasks (heldTask.ts), and the draft's activity opens the work's tasks: behind an order's placement
// runs one activity and one workflow task.
import * as wf from '@temporalio/workflow';
import type { OrderToPlace, WorkbenchSettings, WorkPlan } from '../../contracts/orders.js';
import { isReviewStage, STAGES, taskIdOf, type ReviewStage, type TaskInput, type TaskOutcome } from '../../contracts/tasks.js';
import { mergeParts, planParts, type PartSpan } from '../../domain/humanWork/parts.js';
import type { HeldTask } from './heldTask.js';
import { draftFor, engineFor, failureReason, peopleWork, taskOpening } from '../activities.js';
import { patched } from '../patches.js';

export interface WorkbenchOrder {
  order: OrderToPlace & { work: WorkPlan };
  settings: WorkbenchSettings;
  deadline: string;
  /** Holds a task in the order's workflow (its updates name it). */
  holdTask(input: TaskInput): HeldTask;
}

/**
 * The work's tasks opened with their draft (each part its share) by one activity: the engine's
 * draft on the drafts' queue, the source's on this one, none by a local activity. Best effort: a
 * draft that fails opens the tasks with an empty editor. Answers the whole draft and the lease.
 */
async function openWork({ order }: WorkbenchOrder, tasks: TaskInput[]): Promise<{ draft: string; leaseMs: number }> {
  try {
    if (order.work.draft === 'engine') return await (patched('draftsQueue') ? draftFor(order) : engineFor(order)).openWork({ tasks, draft: 'engine' });
    if (order.work.draft === 'source') return await peopleWork.openWork({ tasks, draft: 'source' });
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    wf.log.warn('no machine draft: the work starts from an empty editor', { orderId: order.id, error: failureReason(err) });
  }
  return taskOpening.openWork({ tasks, draft: 'none' });
}

/** The approved text, and the draft the people started from (for the edit rate). */
export async function runWorkbench(job: WorkbenchOrder): Promise<{ text: string; draft: string }> {
  const { order, settings } = job;
  const spans: PartSpan[] = order.work.mediaParam ? planParts(order.seconds, settings.partSeconds) : [{ start: 0, end: order.seconds }];
  const task = (name: string, fields: TaskFields): Promise<TaskOutcome> => {
    const input = taskInput(job, name, fields);
    return job.holdTask(input).run(() => taskOpening.openTask(input));
  };

  const work = spans.map((span, i) =>
    spans.length === 1
      ? { name: 'work', stage: 'work' as const, skill: order.work.skill }
      : { name: `part-${i + 1}`, stage: 'work' as const, skill: order.work.skill, partNo: i + 1, span },
  );
  /** The work stage: every part's task, each opened with its share of the draft. */
  const doWork = async (): Promise<{ draft: string; parts: TaskOutcome[] }> => {
    const inputs = work.map(({ name, ...fields }) => taskInput(job, name, { ...fields, draftText: '' }));
    const tasks = inputs.map((input) => job.holdTask(input));
    const opened = openWork(job, inputs);
    const parts = await Promise.all(tasks.map((t) => t.run(() => opened)));
    return { draft: (await opened).draft, parts };
  };
  /** A review stage: rounds until its reviewer approves; a send-back goes to the work's (first) worker to fix. */
  const review = async (stage: ReviewStage, text: string, draft: string, author: number): Promise<string> => {
    const names = STAGES[stage].rounds;
    for (let round = 1; ; round++) {
      const reviewed = await task(`${names.review}-${round}`, { stage, skill: order.work.reviewSkill, draftText: text, baseText: draft });
      text = reviewed.text;
      if (reviewed.decision === 'approve') return text;
      // When that worker has been disabled meanwhile, whoever takes it from the queue (paid as new work).
      const toAuthor = await peopleWork.workerEnabled({ workerId: author });
      const fix = await task(`${names.fix}-${round}`, {
        stage: 'work',
        skill: order.work.skill,
        draftText: text,
        note: reviewed.note ?? '',
        ...(toAuthor ? { assignedTo: author } : {}),
      });
      text = fix.text;
      await alignSubmitted(job, text);
    }
  };

  // The people's stages as the plan declares them, in order (the aligner's timing follows in people.ts).
  let draft = '';
  let text = '';
  let author = 0;
  for (const stage of order.work.stages) {
    if (stage === 'work') {
      const done = await doWork();
      draft = done.draft;
      author = done.parts[0]!.workerId;
      text = done.parts.length === 1 ? done.parts[0]!.text : mergeParts(done.parts.map((p, i) => ({ ...spans[i]!, text: p.text })));
      await alignSubmitted(job, text);
    } else if (isReviewStage(stage)) {
      text = await review(stage, text, draft, author);
    }
  }
  await peopleWork.creditWorkers({ orderId: order.id });
  return { text, draft };
}

type TaskFields = Omit<TaskInput, 'taskId' | 'orderId' | 'deadline' | 'leaseMs' | 'words' | 'partNo' | 'span' | 'workflowId'> & Partial<TaskInput>;

/** A task of the order, held by the order's workflow: on the whole of it unless a part is named. */
function taskInput({ order, settings, deadline }: Omit<WorkbenchOrder, 'holdTask'>, name: string, fields: TaskFields): TaskInput {
  const taskId = taskIdOf(order.id, name);
  return {
    taskId,
    orderId: order.id,
    deadline,
    leaseMs: settings.leaseMs,
    words: order.words,
    partNo: 0,
    span: { start: 0, end: order.seconds },
    ...fields,
    workflowId: wf.workflowInfo().workflowId,
  };
}

/** A finished order picked for the quality check: a reviewer approves it, edited or not. */
export async function runQualityCheckTask(job: WorkbenchOrder, finishedText: string): Promise<TaskOutcome> {
  const input = taskInput(job, 'qc', { stage: 'qc', skill: job.order.work.reviewSkill, draftText: finishedText, baseText: finishedText });
  return job.holdTask(input).run(() => taskOpening.openTask(input));
}

/**
 * A transcript of media submitted by its transcriber (the work, or a fix after a send-back): the
 * words typed are timed by the aligner, and the review starts from those times. Best effort.
 */
async function alignSubmitted({ order }: WorkbenchOrder, text: string): Promise<void> {
  if (!(order.work.editor === 'transcript' && order.work.mediaParam)) return;
  try {
    await engineFor(order).timeTypedWords({ orderId: order.id, text, rebase: true });
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    wf.log.warn('the aligner did not time the words typed: the review starts from their interpolated times', { orderId: order.id, error: failureReason(err) });
  }
}

/**
 * The aligner's timing of the approved text: `{ timedKey }` for deliverWork, or nothing. Plans timed
 * by it (captions typed without times) have every word aligned; a transcript of media has the words
 * people typed into its timed draft aligned, the kept words keeping the draft's times. Best effort:
 * when the aligner cannot time the words, the text's marks or the interpolated times serve.
 */
export async function alignerTiming({ order }: WorkbenchOrder, text: string): Promise<{ timedKey?: string }> {
  const byAligner = order.work.stages.includes('aligner_timing');
  if (!byAligner && !(order.work.editor === 'transcript' && order.work.mediaParam)) return {};
  try {
    const timedKey = await (byAligner ? engineFor(order).timeWork({ orderId: order.id, text }) : engineFor(order).timeTypedWords({ orderId: order.id, text }));
    return timedKey ? { timedKey } : {};
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    wf.log.warn('the aligner did not time the approved text: the times it has serve', { orderId: order.id, error: failureReason(err) });
    return {};
  }
}
