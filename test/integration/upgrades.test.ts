// Deploying a change to the order workflow while orders run. Each row is one such change: an order
// is placed, and checked, by the workflow code of the last commit before it (built from git, run
// by a worker of its own on the service's task queue, test/helpers/oldCode.ts); then the current
// code's worker takes the queue over, finishes the order and the row checks what the upgrade must
// keep. A row that fails means deploying today's code would break orders of that commit in flight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderWorkflowId, stagesOf, statusQuery, type WorkStage } from '../../src/contracts/orders.js';
import { getTask, tasksOfOrder } from '../../src/db/tasks.js';
import { BASELINE, PATCHES } from '../../src/workflows/patches.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { patchMarkerIds } from '../helpers/histories.js';
import { BEFORE_PATCH_BASELINE, BEFORE_SECOND_REVIEW, BEFORE_TASKS_HELD_BY_ORDER, BEFORE_WORKBENCH } from '../helpers/legCatalog.js';
import { describeNeeding } from '../helpers/legs.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { oldWorkflowCode, withOldWorker } from '../helpers/oldCode.js';
import { startService, type TestService } from '../helpers/service.js';
import { WorkerSession } from '../helpers/workerSession.js';

/** The shared steps, on one row's service. */
function world(service: TestService, media: MediaServer, docs: DocumentServer, workers: Map<string, WorkerSession>) {
  /** Places an order from a fresh account, expecting it accepted. */
  const place = async (path: string, fields: Record<string, unknown>): Promise<Order> => {
    const account = await service.createAccount(100);
    const placed = await service.post(path, { api_token: account.token, mode: 'live', ...fields });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    return { id: placed.body.order_id as number, token: account.token };
  };
  return {
    service,
    docs,
    place,
    transcription: () => place('/api/v4/transcriptions', { url: media.audio(30), language: 'english' }),
    worker: (name: string) => workers.get(name)!,
    workflow: (orderId: number) => service.temporal.workflow.getHandle(orderWorkflowId(orderId)),
    /** The order's task `name` (work, review-1, …) once it waits for a worker. */
    taskOf: (orderId: number, name: string) =>
      waitFor(async () => {
        const task = await getTask(service.database.db, `task-${orderId}-${name}`);
        return task?.status === 'waiting' ? task : undefined;
      }, `task-${orderId}-${name}`),
    /** The customer's record of the order says it is finished. */
    async expectDelivered(order: Order) {
      const record = await service.get(`/api/v4/orders/${order.id}?api_token=${order.token}&mode=live`);
      expect(record.body.data).toMatchObject({ id: order.id, finished_at: expect.any(String) });
    },
  };
}
type World = ReturnType<typeof world>;
type Order = { id: number; token: string };

const claim = async (who: WorkerSession, taskId: string) => (await who.request('POST', `/work/tasks/${taskId}/claim`, {})).location;
/** Claims the task (opening its page) and submits `text` (back to the queue). */
async function doWork(who: WorkerSession, taskId: string, text: string) {
  expect(await claim(who, taskId)).toBe(`/work/tasks/${taskId}`);
  expect((await who.request('POST', `/work/tasks/${taskId}/submit`, { text })).location).toBe('/work/queue');
}
async function approve(who: WorkerSession, taskId: string, text: string) {
  expect(await claim(who, taskId)).toBe(`/work/tasks/${taskId}`);
  await who.request('POST', `/work/tasks/${taskId}/review`, { text, decision: 'approve' });
}

interface Upgrade {
  /** The suite's title: the order and the change it lives through. */
  name: string;
  /** The commit whose workflow code places the order: the last one before the change. */
  before: string;
  /** The test's title: what the row proves. */
  it: string;
  /** Workers (name → skills) made and signed in before the order is placed. */
  workers?: Record<string, string>;
  /** Today's activities serve the engine queue beside the old code (else drafts wait for the new worker). */
  engines?: boolean;
  /** Under the old code: places the order and checks what that code did. */
  onOld(w: World): Promise<Order>;
  /** On the current code: finishes the order and checks what the upgrade kept. */
  onNew(w: World, order: Order): Promise<void>;
}

const UPGRADES: Upgrade[] = [
  // The old code charges an order and leaves it to the operator; the new code replays that history
  // (no `workbench` patch marker, no task) and lets `order-ops complete` finish it.
  {
    name: 'an order placed before the workbench, finished after it',
    before: BEFORE_WORKBENCH,
    it: 'is charged by the old code and finished by the new one, with no task opened',
    async onOld(w) {
      const order = await w.transcription();
      expect(await w.workflow(order.id).query(statusQuery)).toMatchObject({ status: 'paid', workingOn: 'operator' });
      return order;
    },
    async onNew(w, order) {
      const completed = await w.service.complete(order.id, 'done.txt', 'Speaker 1: finished on the new code.');
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      expect(completed.body).toMatchObject({ status: 'finished' });
      const handle = w.workflow(order.id);
      await waitFor(async () => (await handle.describe()).status.name === 'COMPLETED', 'the workflow closed');
      // The markers the history holds (local activities' too): none is the workbench's.
      const markers = ((await handle.fetchHistory()).events ?? []).flatMap((e) =>
        Object.values(e.markerRecordedEventAttributes?.details ?? {}).flatMap((p) => (p.payloads ?? []).map((d) => Buffer.from(d.data ?? []).toString('utf8'))),
      );
      expect(markers.some((m) => m.includes('charge-local-activity'))).toBe(true);
      expect(markers.some((m) => m.includes('workbench'))).toBe(false);
      expect(await tasksOfOrder(w.service.database.db, order.id)).toEqual([]);
      await w.expectDelivered(order);
    },
  },
  // A translation with `additional_review` is charged by the old code, which knew no second
  // review; the new code makes its draft, reaches the `second-review` patch live and runs the
  // review the customer paid for.
  {
    name: 'a translation with additional_review placed before second reviews, finished after them',
    before: BEFORE_SECOND_REVIEW,
    it: 'is charged by the old code; the new code runs the work, the review and the second review',
    workers: { tom: 'translation:english>french', ria: 'review:french', rob: 'review:french' },
    async onOld(w) {
      const url = w.docs.serve('/letter.txt', 'Dear customer, your order is ready.', 'text/plain');
      const order = await w.place('/api/v4/translations', { url, translate_from: 'english', translate_to: 'french', additional_review: 'true' });
      // Paid; its draft waits for the engine worker, which runs with the new code.
      expect(await w.workflow(order.id).query(statusQuery)).toMatchObject({ status: 'paid' });
      return order;
    },
    async onNew(w, order) {
      await doWork(w.worker('tom'), (await w.taskOf(order.id, 'work')).id, 'Cher client, votre commande est prête.');
      await approve(w.worker('ria'), (await w.taskOf(order.id, 'review-1')).id, 'Cher client, votre commande est prête.');
      const second = await w.taskOf(order.id, 'second-review-1');
      expect(second.stage).toBe('second_review');
      expect(await claim(w.worker('ria'), second.id)).toBe('/work/queue'); // not the first reviewer
      await approve(w.worker('rob'), second.id, 'Cher client, votre commande est bien prête.');
      await w.workflow(order.id).result();
      expect((await tasksOfOrder(w.service.database.db, order.id)).map((t) => [t.stage, t.status])).toEqual([
        ['work', 'submitted'],
        ['review', 'approved'],
        ['second_review', 'approved'],
      ]);
      await w.expectDelivered(order);
    },
  },
  // The old code opens each task in a child workflow of its own; the new code routes the claim and
  // the submission to the child the task row names, keeps the review in a child too (the order
  // replays its old path) and delivers. An order placed beside it on the new code holds its tasks.
  {
    name: 'a human order whose task was opened in a child workflow, finished after orders hold their tasks',
    before: BEFORE_TASKS_HELD_BY_ORDER,
    it: 'the old code opens the work in a child; the new code routes the claim there, runs the review and delivers',
    workers: { ann: 'transcription:english', rita: 'review:english' },
    engines: true,
    async onOld(w) {
      const order = await w.transcription();
      const work = await w.taskOf(order.id, 'work');
      expect(work.workflowId).toBeNull(); // the row names no other workflow: the task's own child opened it
      await waitFor(async () => (await w.service.temporal.workflow.getHandle(work.id).describe()).status.name === 'RUNNING', 'the task workflow');
      return order;
    },
    async onNew(w, order) {
      await doWork(w.worker('ann'), `task-${order.id}-work`, 'Speaker 1: said before the change');
      const review = await w.taskOf(order.id, 'review-1');
      expect(review.workflowId).toBeNull();
      await approve(w.worker('rita'), review.id, 'Speaker 1: said before the change.');
      expect(await w.workflow(order.id).result()).toMatchObject({ status: 'finished' });
      expect(await getTask(w.service.database.db, review.id)).toMatchObject({ status: 'approved', submittedBy: expect.any(Number) });
      // Placed on the new code: the order's workflow holds the task, no child is started.
      const newOrder = await w.transcription();
      const held = await w.taskOf(newOrder.id, 'work');
      expect(held.workflowId).toBe(orderWorkflowId(newOrder.id));
      expect(await claim(w.worker('ann'), held.id)).toBe(`/work/tasks/${held.id}`);
      await expect(w.service.temporal.workflow.getHandle(held.id).describe()).rejects.toThrow(/not found/i);
    },
  },
  // The old code records a marker for each patch an order reaches; the new code replays it off the
  // baseline (asking for no patch of its own), and the claim, submission and review still reach it.
  {
    name: 'a human order placed before the patch baseline, finished on it',
    before: BEFORE_PATCH_BASELINE,
    it: 'the old code charges the order and opens its work; the new code runs its claim, submission and review and delivers it',
    workers: { ann: 'transcription:english', rita: 'review:english' },
    engines: true,
    async onOld(w) {
      const order = await w.transcription();
      await w.taskOf(order.id, 'work');
      // The old code's markers, one per patch reached, and no baseline.
      const ids = patchMarkerIds(await w.workflow(order.id).fetchHistory());
      expect(ids).toEqual([PATCHES.chargeLocalActivity.id, PATCHES.lateOrderTimer.id, PATCHES.workbench.id, PATCHES.tasksHeldByOrder.id]);
      return order;
    },
    async onNew(w, order) {
      await doWork(w.worker('ann'), `task-${order.id}-work`, 'Speaker 1: said before the baseline');
      await approve(w.worker('rita'), (await w.taskOf(order.id, 'review-1')).id, 'Speaker 1: said before the baseline.');
      expect(await w.workflow(order.id).result()).toMatchObject({ status: 'finished' });
      const after = patchMarkerIds(await w.workflow(order.id).fetchHistory());
      expect(after).not.toContain(BASELINE.id);
      expect(after.every((id) => Object.values(PATCHES).some((p) => p.id === id))).toBe(true);
    },
  },
];

describeNeeding('gitHistory', 'orders placed by an earlier commit, finished on the current code', () => {
  let media: MediaServer;
  let docs: DocumentServer;
  beforeAll(async () => {
    [media, docs] = await Promise.all([startMediaServer(), startDocumentServer()]);
  });
  afterAll(async () => {
    await Promise.all([media?.close(), docs?.close()]);
  });

  for (const row of UPGRADES) {
    // A service per row: the old code's worker and then the new code's serve its task queue alone.
    describe(`${row.name} (old code: ${row.before})`, () => {
      let service: TestService;
      let old: Awaited<ReturnType<typeof oldWorkflowCode>>;
      beforeAll(async () => {
        [old, service] = await Promise.all([oldWorkflowCode(row.before), startService({ inProcessWorker: false })]);
      });
      afterAll(async () => {
        await Promise.all([service?.close(), old?.remove()]);
      });

      it(row.it, async () => {
        const made = Object.entries(row.workers ?? {}).map(async ([name, skills]) => {
          const { sign_in_token } = (await service.ops('POST', '/ops/workers', { name, skills })).body as { sign_in_token: string };
          return [name, await WorkerSession.signIn(service.baseUrl, sign_in_token)] as const;
        });
        const w = world(service, media, docs, new Map(await Promise.all(made)));
        const order = await withOldWorker(service, old.code, () => row.onOld(w), { engines: row.engines ?? false });
        await service.startWorker(); // the new code takes over the task queue
        await row.onNew(w, order);
      });
    });
  }
});

it('an order placed before plans declared their stages gets the second review its additional_review paid for, and the aligner its timing', () => {
  const work = {
    skill: 'translation:english>french',
    reviewSkill: 'review:french',
    editor: 'translation',
    draft: 'engine',
    payUnit: 'word',
    rules: { timestamping: 'not_required' },
  } as const;
  const after = (plan: Record<string, unknown>, params: Record<string, unknown>) => stagesOf({ ...work, ...plan }, params);
  expect(after({}, { additional_review: true })).toEqual(['work', 'review', 'second_review']);
  expect(after({}, { additional_review: false })).toEqual(['work', 'review']);
  expect(after({ reviews: ['review'] }, { additional_review: true })).toEqual(['work', 'review']); // the plan, where it names them
  expect(after({ timing: 'aligner' }, {})).toEqual(['work', 'review', 'aligner_timing']);
  const declared: WorkStage[] = ['work', 'review', 'second_review'];
  expect(after({ stages: declared, reviews: ['review'] }, {})).toEqual(declared); // declared stages win
});
