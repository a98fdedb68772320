// The workbench's activities: task rows, leases, outcomes, pay, and turning approved text into the
// order's result files. The workflow holding the task (src/workflows/order/heldTask.ts) decides; these record.
import { ApplicationFailure, log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import type { ResultFile, WorkPlan } from '../contracts/orders.js';
import type { TaskInput, TaskStatus } from '../contracts/tasks.js';
import { getOrder, setDraftDoubts, setDraftEditRate, setDraftWords } from '../db/orders.js';
import type { OrderRow } from '../db/schema.js';
import { closeTask, getTask, insertTasks, leaseState, recordClaim, recordOutcome, recordRelease, tasksOfOrder, type NewTask } from '../db/tasks.js';
import { timedDraft, type Draft, type MachineDraft } from './drafts.js';
import { creditWorkers, getWorker, workerIsEnabled } from '../db/workers.js';
import { renderJson2 } from '../domain/render/json.js';
import { onSourceCues, transcriptFromEditor } from '../domain/humanWork/editorText.js';
import { textInSpan } from '../domain/humanWork/parts.js';
import { spreadUntimed } from '../domain/timing.js';
import { languagesOf } from '../products/shared.js';
import { keptSourceOf, orderResultKinds, productOf, resultsNeedCues, workPlanOfOrder } from '../products/registry.js';
import { draftEditRate as draftEditRateMetric, draftWordsChanged, paidToFirstClaim, taskClaims, taskLeaseExpiries } from '../metrics.js';
import { changedShares, doubtsIn } from '../domain/doubts.js';
import { draftEditRate, payForOpenedTask } from '../orders/workPay.js';
import { timedWork } from '../orders/workWords.js';
import { forOrder } from '../db/orderBlobs.js';

async function orderOf(deps: ActivityDeps, orderId: number): Promise<OrderRow> {
  const order = await getOrder(deps.db, orderId);
  if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`);
  return order;
}

/** The order's work plan, as its product declares it for its parameters. */
export function planOf(order: OrderRow) {
  const plan = workPlanOfOrder(order);
  if (!plan) throw ApplicationFailure.nonRetryable(`order ${order.id}: ${order.product} is not done by people`);
  return plan;
}

export function createTaskActivities(deps: ActivityDeps, machineDraft: MachineDraft) {
  const { db, files, documentReader, payRates } = deps;
  /** Opens the tasks' rows, in one statement; a retry finds them open. */
  const openRows = async (order: OrderRow, inputs: TaskInput[]): Promise<void> => {
    await insertTasks(
      db,
      inputs.map((input) => newTask(order, input)),
    );
    for (const input of inputs)
      log.info('task open', { orderId: input.orderId, taskId: input.taskId, stage: input.stage, skill: input.skill, assignedTo: input.assignedTo });
  };
  const newTask = (order: OrderRow, input: TaskInput): NewTask => ({
    id: input.taskId,
    orderId: input.orderId,
    product: order.product,
    stage: input.stage,
    partNo: input.partNo,
    spanStart: input.span.start,
    spanEnd: input.span.end,
    words: order.words,
    skill: input.skill,
    deadline: new Date(input.deadline),
    draft: input.draftText,
    baseText: input.baseText ?? null,
    note: input.note ?? null,
    payCents: payForOpenedTask(payRates, order, input),
    claimedBy: input.assignedTo ?? null,
    workflowId: input.workflowId,
  });
  /**
   * The kept input file's text (proofreading's supplied transcript, the engine's transcript of an AI
   * order handed to people), with the words its engine doubted where the file says (json2).
   */
  const keptSourceDraft = async (order: OrderRow): Promise<Draft> => {
    const input = keptSourceOf(order);
    if (!input) return { text: '', doubts: [] };
    return timedDraft(await documentReader.importDocument(await files.get(input.key), input.fileName));
  };
  return {
    /** Opens the task's row; answers the lease it runs with: this worker's TASK_LEASE_MINUTES, not the placing API's. */
    async openTask(input: TaskInput): Promise<{ leaseMs: number }> {
      await openRows(await orderOf(deps, input.orderId), [input]);
      return { leaseMs: deps.taskLeaseMs };
    },

    /**
     * The work's tasks opened with the draft they start from (a part its share of it): the engine's
     * transcript, the kept source's text, or nothing. Answers the whole draft (the edit rate's
     * baseline) and the lease. A retry finds the rows already open.
     */
    async openWork({ tasks, draft }: { tasks: TaskInput[]; draft: WorkPlan['draft'] }): Promise<{ draft: string; leaseMs: number }> {
      const order = await orderOf(deps, tasks[0]!.orderId);
      const made = draft === 'engine' ? await machineDraft(order) : draft === 'source' ? await keptSourceDraft(order) : { text: '', doubts: [] };
      const text = made.text;
      // Kept for the editor's marks and the delivery's measure (a repeat writes the same).
      if (made.doubts.length) await setDraftDoubts(db, order.id, made.doubts);
      // The draft's word times serve the result only where its words are the result's: a transcript
      // in the result's language (not the source a translator works from).
      const languages = languagesOf(order.params);
      if (made.timed && planOf(order).editor === 'transcript' && languages.source === languages.result)
        await setDraftWords(db, order.id, await files.put(Buffer.from(JSON.stringify(made.timed)), forOrder(db, order.id)));
      await openRows(
        order,
        tasks.map((task) => ({ ...task, draftText: tasks.length === 1 ? text : textInSpan(text, task.span) })),
      );
      return { draft: text, leaseMs: deps.taskLeaseMs };
    },

    /** Whether the worker may still be given work: a send-back goes to its worker only then, else to the queue. */
    async workerEnabled({ workerId }: { workerId: number }): Promise<boolean> {
      return workerIsEnabled(await getWorker(db, workerId));
    },

    async recordTaskClaim({ taskId, workerId }: { taskId: string; workerId: number }): Promise<void> {
      const task = await getTask(db, taskId);
      if (!task) throw ApplicationFailure.nonRetryable(`task ${taskId} not found`);
      const first = (await tasksOfOrder(db, task.orderId)).every((t) => t.claimedAt === null && t.submittedBy === null);
      await recordClaim(db, taskId, workerId);
      taskClaims.inc({ skill: task.skill });
      const order = await getOrder(db, task.orderId);
      if (first && order?.paidAt) paidToFirstClaim.observe({ product: order.product }, (Date.now() - order.paidAt.getTime()) / 1000);
      log.info('task claimed', { orderId: task.orderId, taskId, workerId });
    },

    async recordTaskRelease({ taskId, expired }: { taskId: string; expired: boolean }): Promise<void> {
      await recordRelease(db, taskId, expired);
      const task = await getTask(db, taskId);
      if (expired && task) taskLeaseExpiries.inc({ skill: task.skill });
      log.info(expired ? 'task lease expired: back in the queue' : 'task released', { orderId: task?.orderId, taskId });
    },

    async taskLease({ taskId }: { taskId: string }): Promise<{ saves: number; msSinceSave: number }> {
      return leaseState(db, taskId);
    },

    async recordTaskOutcome(input: { taskId: string; status: TaskStatus; workerId: number; text: string; note?: string }): Promise<void> {
      await recordOutcome(db, input.taskId, input);
      log.info(`task ${input.status}`, { taskId: input.taskId, workerId: input.workerId });
    },

    async closeTask({ taskId }: { taskId: string }): Promise<void> {
      await closeTask(db, taskId);
    },

    /** Approved: every task of the order that was done (work, reviews, checks) is paid, once. */
    async creditWorkers({ orderId }: { orderId: number }): Promise<{ credited: number }> {
      const done = (await tasksOfOrder(db, orderId)).filter((t) => t.submittedBy !== null && t.status !== 'closed');
      const credited = await creditWorkers(
        db,
        done.map((t) => ({ taskId: t.id, workerId: t.submittedBy!, orderId, cents: t.payCents })),
      );
      log.info('workers credited', { orderId, credited });
      return { credited };
    },

    /**
     * The approved text as the order's result files: for media a timed transcript (the aligner's,
     * `timedKey`, when it timed the words; else the draft's word times kept across the edits; else
     * the text's marks, and for cues every paragraph given its share of the time around it), text
     * for documents.
     */
    async deliverWork({ orderId, text, draft, timedKey }: { orderId: number; text: string; draft?: string; timedKey?: string }): Promise<ResultFile[]> {
      const order = await orderOf(deps, orderId);
      const { editor, rules } = planOf(order);
      const isTranscript = editor === 'transcript';
      // What the draft saved: how much of it the people changed (none to measure without a draft).
      if (draft?.trim()) {
        const rate = draftEditRate(draft, text, editor);
        await setDraftEditRate(db, orderId, rate);
        // Labelled by the result's language (a translation's target), as TTML's xml:lang.
        draftEditRateMetric.observe({ product: order.product, language: languagesOf(order.params).result ?? '' }, rate);
        // Whether the marks pointed at the words people fixed.
        const shares = order.draftDoubts?.length ? changedShares(draft, text, doubtsIn(draft, order.draftDoubts)) : undefined;
        if (shares) {
          for (const confidence of ['doubtful', 'confident'] as const) draftWordsChanged.observe({ product: order.product, confidence }, shares[confidence]);
          log.info('draft words changed, doubtful and confident', { orderId, accountId: order.accountId, ...shares });
        }
      }
      const filesOf = (blobKey: string, fileName: string) => orderResultKinds(order).map((kind) => ({ kind, blobKey, fileName }));
      if (timedKey) return filesOf(timedKey, 'work.json');
      const source = keptSourceOf(order);
      if (rules.cues && source) {
        // A subtitle file translated: the paragraphs on the source's cues, kept timed.
        const cues = await documentReader.importDocument(await files.get(source.key), source.fileName);
        return filesOf(await files.put(Buffer.from(renderJson2(onSourceCues(transcriptFromEditor(text), cues))), forOrder(db, order.id)), 'work.json');
      }
      if (!isTranscript) return filesOf(await files.put(Buffer.from(text), forOrder(db, order.id)), 'work.txt');
      // Every word timed: the draft's times kept across the people's edits, typed words between their neighbours.
      const transcript = (await timedWork(files, order, text)) ?? transcriptFromEditor(text, order.seconds || undefined);
      const result = resultsNeedCues(order) ? spreadUntimed(transcript, order.seconds) : transcript;
      return filesOf(await files.put(Buffer.from(renderJson2(result)), forOrder(db, order.id)), 'work.json');
    },
  };
}
