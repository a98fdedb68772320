// The workbench's use cases, between the task workflows and the adapters (the /work pages, the
// operators' routes): the queue, claims, autosaves, submissions, reviews, releases, and the media a
// worker hears. Claims, submissions and reviews are updates on the workflow holding the task (the
// row names it), whose validators decide; a refusal comes back as a TaskRefusedError with the
// workflow's reason.
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { RequestError } from '../contracts/failures.js';
import { claimTaskUpdate, releaseTaskUpdate, reviewTaskUpdate, submitTaskUpdate, type TaskState } from '../contracts/tasks.js';
import type { Db } from '../db/connection.js';
import { getOrder } from '../db/orders.js';
import type { OrderRow, TaskRow, WorkerRow } from '../db/schema.js';
import { dropClaim, getTask, queueOf, renewClaim, reserveClaim, saveDraft, saveDraftChange, tasksOfOrder } from '../db/tasks.js';
import type { TextChange } from '../domain/humanWork/textChange.js';
import { MAX_WORK_NOTE, MAX_WORK_TEXT, workTextProblem } from '../domain/humanWork/workText.js';
import { getWorker, workerIsEnabled } from '../db/workers.js';
import { transcriptFromEditor } from '../domain/humanWork/editorText.js';
import { checksOwnWork } from '../domain/humanWork/ownWork.js';
import { submissionProblems } from '../domain/humanWork/submission.js';
import { resultsNeedCues, workPlanOfOrder } from '../products/registry.js';
import type { FileStore } from '../storage/fileStore.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import { SIGNATURE_BYTES, servedTypeOf } from '../documents/measure.js';
import { MediaRefusedError, orderMedia, type OrderMediaDeps } from './orderMedia.js';

export interface WorkbenchDeps extends OrderMediaDeps {
  temporal: Client;
  documentReader: DocumentReader;
  /** How many tasks one worker may hold at once (TASK_MAX_HELD); default DEFAULT_MAX_HELD_TASKS. */
  maxHeldTasks?: number;
}

export const DEFAULT_MAX_HELD_TASKS = 2;

/**
 * The task cannot be done this way now (taken, not yours, wrong skill; `own-work`: it checks the
 * worker's own work; `held`: the worker holds as many tasks as they may): 409 with the reason.
 */
export class TaskRefusedError extends RequestError {
  constructor(
    message: string,
    readonly why: 'state' | 'own-work' | 'held' = 'state',
  ) {
    super(message, 409);
  }
}

/** Submit found what the order asked for missing: each problem named (422). */
export class SubmissionProblemsError extends RequestError {
  constructor(readonly problems: string[]) {
    super(problems.join(' '), 422);
  }
}

export async function requireTask(db: Db, taskId: string): Promise<TaskRow> {
  const task = /^task-\d+-[a-z0-9-]+$/.test(taskId) ? await getTask(db, taskId) : undefined;
  if (!task) throw new RequestError(`task ${taskId} not found`, 404);
  return task;
}

/** A task update on the workflow holding the task (its order's), naming the task; a refusal is a TaskRefusedError with the workflow's reason. */
async function updateTask<Args extends { taskId: string }>(
  deps: WorkbenchDeps,
  task: TaskRow,
  update: UpdateDefinition<TaskState, [Args]>,
  args: Omit<Args, 'taskId'>,
): Promise<TaskState> {
  try {
    return await deps.temporal.workflow.getHandle(task.workflowId).executeUpdate(update, { args: [{ ...args, taskId: task.id } as Args] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) throw new TaskRefusedError(err.cause.message);
    if (err instanceof WorkflowNotFoundError) throw new TaskRefusedError(`task ${task.id} is no longer open`);
    throw err;
  }
}

export function queueFor(deps: WorkbenchDeps, worker: WorkerRow) {
  return queueOf(deps.db, worker.id, worker.skills);
}

/** Refused when the worker submitted work that this task checks (nobody reviews their own work). */
async function refuseOwnWork(db: Db, task: TaskRow, workerId: number): Promise<void> {
  if (checksOwnWork(task.stage, await tasksOfOrder(db, task.orderId), workerId)) {
    throw new TaskRefusedError(
      `task ${task.id} checks work that worker ${workerId} did on order ${task.orderId}: another worker ${task.stage === 'qc' ? 'does the quality check' : 'reviews it'}`,
      'own-work',
    );
  }
}

/** How long a claim's slot outlives a process that died mid-claim; a claim still waiting renews it. */
const CLAIM_SLOT_MS = 30_000;

/**
 * A claim: the task workflow's validator decides on status and skill; before it, the worker may not
 * check their own work, and the claim takes one of the worker's `maxHeldTasks` slots (`reserveClaim`:
 * the tasks held and the claims in flight, counted under a lock on the worker), so that claims racing
 * from one worker, in one process or several, end within the limit and never all given back.
 */
export async function claimTask(deps: WorkbenchDeps, worker: WorkerRow, taskId: string): Promise<TaskState> {
  const task = await requireTask(deps.db, taskId);
  await refuseOwnWork(deps.db, task, worker.id);
  const max = deps.maxHeldTasks ?? DEFAULT_MAX_HELD_TASKS;
  const slot = await reserveClaim(deps.db, worker.id, task.id, max, CLAIM_SLOT_MS);
  if (slot === undefined)
    throw new TaskRefusedError(`you hold ${max} task${max === 1 ? '' : 's'} already: submit one or give it back before you claim another`, 'held');
  const renewing = setInterval(() => void renewClaim(deps.db, slot, CLAIM_SLOT_MS).catch(() => undefined), CLAIM_SLOT_MS / 3);
  let answered = false;
  try {
    const state = await updateTask(deps, task, claimTaskUpdate, { workerId: worker.id, skills: worker.skills });
    answered = true;
    return state;
  } catch (err) {
    answered = err instanceof TaskRefusedError;
    throw err;
  } finally {
    clearInterval(renewing);
    // Answered, the task row says (the workflow wrote the claim before answering); otherwise the
    // update may still land, and the slot lapses instead.
    if (answered) await dropClaim(deps.db, slot).catch(() => undefined);
  }
}

/** The soonest-due task the worker may take; another worker's faster claim moves on to the next. */
export async function claimNextTask(deps: WorkbenchDeps, worker: WorkerRow): Promise<TaskRow | undefined> {
  const { waiting } = await queueFor(deps, worker);
  for (const task of waiting) {
    try {
      await claimTask(deps, worker, task.id);
      return task;
    } catch (err) {
      // Taken meanwhile (or not this worker's to check): the next one. Holding too many: no claim at all.
      if (!(err instanceof TaskRefusedError) || err.why === 'held') throw err;
    }
  }
  return undefined;
}

const notClaimed = (taskId: string) => new TaskRefusedError(`task ${taskId} is not claimed by you; copy your text before you leave the page`);

/**
 * An autosave: only while the worker holds the claim (the lease is renewed by it). The whole text,
 * or one change against the text last saved (`base`: its digest); false when that is not the text
 * saved now (the page then sends the whole text). A text over the limit or not well-formed, or a
 * change splitting a character, is a RequestError (400) naming the field, and nothing is saved.
 */
export async function saveWork(
  deps: WorkbenchDeps,
  worker: WorkerRow,
  taskId: string,
  save: { text: string } | { change: TextChange; base: string },
): Promise<boolean> {
  if ('text' in save) {
    const problem = workTextProblem('text', save.text);
    if (problem) throw new RequestError(problem, 400);
    if (!(await saveDraft(deps.db, taskId, worker.id, save.text))) throw notClaimed(taskId);
    return true;
  }
  const saved = await saveDraftChange(deps.db, taskId, worker.id, save.change, save.base, MAX_WORK_TEXT);
  if (saved === 'refused') throw notClaimed(taskId);
  if (typeof saved === 'object') throw new RequestError(saved.problem, 400);
  return saved === 'saved';
}

/** Problems Submit finds against what the order asked for; none: the text can go. */
export async function checkSubmission(db: Db, task: TaskRow, text: string): Promise<string[]> {
  const order = await getOrder(db, task.orderId);
  const plan = order && workPlanOfOrder(order);
  if (!order || !plan) return [];
  if (plan.editor !== 'transcript') {
    if (!text.trim()) return ['The text is empty.'];
    // A subtitle file's translation: a paragraph per cue.
    return plan.rules.cues ? submissionProblems(text, plan.rules) : [];
  }
  const problems = submissionProblems(text, plan.rules);
  // Cues need times: every paragraph starts with a mark, unless the aligner times the words.
  if (
    !plan.stages.includes('aligner_timing') &&
    resultsNeedCues(order) &&
    problems.length === 0 &&
    transcriptFromEditor(text).segments.some((s) => s.start === undefined)
  ) {
    problems.push('Every paragraph needs a [hh:mm:ss] mark at its start: the cues are timed by them.');
  }
  return problems;
}

export async function submitWork(deps: WorkbenchDeps, worker: WorkerRow, taskId: string, text: string): Promise<TaskState> {
  const task = await requireTask(deps.db, taskId);
  await saveWork(deps, worker, taskId, { text });
  const problems = await checkSubmission(deps.db, task, text);
  if (problems.length) throw new SubmissionProblemsError(problems);
  return updateTask(deps, task, submitTaskUpdate, { workerId: worker.id, text });
}

export async function reviewWork(
  deps: WorkbenchDeps,
  worker: WorkerRow,
  taskId: string,
  review: { decision: 'approve' | 'send_back'; text: string; note?: string },
): Promise<TaskState> {
  const task = await requireTask(deps.db, taskId);
  const noteProblem = review.note === undefined ? undefined : workTextProblem('note', review.note, MAX_WORK_NOTE);
  if (noteProblem) throw new RequestError(noteProblem, 400);
  await saveWork(deps, worker, taskId, { text: review.text });
  // What is approved is delivered: it meets what Submit asks.
  const problems = review.decision === 'approve' ? await checkSubmission(deps.db, task, review.text) : [];
  if (problems.length) throw new SubmissionProblemsError(problems);
  return updateTask(deps, task, reviewTaskUpdate, { workerId: worker.id, ...review });
}

/** An operator releases a claim, or gives it to another worker (who needs the skill). */
export async function releaseTask(deps: WorkbenchDeps, taskId: string, reason: string, toWorkerId?: number): Promise<TaskState> {
  const task = await requireTask(deps.db, taskId);
  let to: { workerId: number; skills: string[] } | undefined;
  if (toWorkerId !== undefined) {
    const worker = await getWorker(deps.db, toWorkerId);
    if (!workerIsEnabled(worker)) throw new RequestError(`worker: ${toWorkerId} is not an enabled worker`, 404);
    await refuseOwnWork(deps.db, task, worker.id);
    to = { workerId: worker.id, skills: worker.skills };
  }
  return updateTask(deps, task, releaseTaskUpdate, { reason, ...(to ? { to } : {}) });
}

/** A worker may open a task they hold, or (reading only) one waiting in their queue. */
export async function taskForWorker(db: Db, worker: WorkerRow, taskId: string): Promise<{ task: TaskRow; order: OrderRow; holds: boolean }> {
  const task = await requireTask(db, taskId);
  const holds = task.status === 'claimed' && task.claimedBy === worker.id;
  if (!holds && !(task.status === 'waiting' && worker.skills.includes(task.skill))) throw new RequestError(`task ${taskId} is not open to you`, 403);
  const order = await getOrder(db, task.orderId);
  if (!order) throw new RequestError(`task ${taskId} not found`, 404);
  return { task, order, holds };
}

/**
 * The order's media (or source file) for the editor, from the service's copy (claim-check,
 * `input_files.<name>`): the media is the order's one copy (orderMedia.ts: fetched once, a video
 * reduced to its audio), served with range requests. The worker never sees the customer's URL.
 */
export async function workFile(deps: WorkbenchDeps, order: OrderRow, name: 'media' | 'source'): Promise<string | undefined> {
  if (name === 'source') return order.inputFiles.source?.key;
  return (await orderMedia(deps, order))?.key;
}

/**
 * The order's media (audio or video) or source page image for the editor: its key and the type its
 * bytes are, read from the stored copy each time (a copy kept before carries the customer's header).
 * Anything else is refused: a customer's HTML must never be served as a page of the service.
 */
export async function servedWorkFile(deps: WorkbenchDeps, order: OrderRow, name: 'media' | 'source'): Promise<{ key: string; type: string } | undefined> {
  const key = await workFile(deps, order, name);
  if (!key) return undefined;
  const head = await readHead(deps.files, key);
  const served = servedTypeOf(head);
  const wanted = name === 'media' ? 'media' : 'image';
  if (served?.cls !== wanted)
    throw new MediaRefusedError(
      `the ${name === 'media' ? 'media' : 'source'} of order ${order.id} is not ${name === 'media' ? 'audio or video' : 'an image'} by its content; it is not served`,
    );
  return { key, type: served.type };
}

async function readHead(files: FileStore, key: string): Promise<Buffer> {
  const size = await files.size(key);
  if (size === 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of files.stream(key, 0, Math.min(size, SIGNATURE_BYTES) - 1)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const isPdf = (fileName: string) => /\.pdf$/i.test(fileName);

/** How many pages the order's PDF source has (an OCR order's scanned pages); undefined when it is no PDF. */
export async function sourcePdfPages(deps: WorkbenchDeps, order: OrderRow): Promise<number | undefined> {
  const source = order.inputFiles.source;
  if (!source || !isPdf(source.fileName)) return undefined;
  return (await deps.documentReader.ocrEstimate(await deps.files.get(source.key), source.fileName, 'document')).pages;
}

/** Page `page` of the order's PDF source drawn as a PNG, in the sandbox (the file is the customer's). */
export async function sourcePdfPage(deps: WorkbenchDeps, order: OrderRow, page: number): Promise<Buffer> {
  const source = order.inputFiles.source;
  if (!source || !isPdf(source.fileName)) throw new RequestError('this task has no PDF source', 404);
  return deps.documentReader.renderPdfPage(await deps.files.get(source.key), page);
}
