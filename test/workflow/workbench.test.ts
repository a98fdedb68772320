// The workbench's workflows on the time-skipping test server, with the real activities on a real
// database (PGlite) and file store: leases (expiry, renewal by saves), parts and their merge, review
// rounds with send-backs, the quality-check pick, and an operator completing an order mid-work.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { ApplicationFailure } from '@temporalio/common';
import { Client, WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import { createActivities, type ActivityDeps } from '../../src/activities/index.js';
import {
  completeUpdate,
  draftTaskQueue,
  engineTaskQueue,
  orderWorkflowId,
  placeOrderUpdate,
  startSearchAttributes,
  statusQuery,
  type OrderWorkflowInput,
} from '../../src/contracts/orders.js';
import { claimTaskUpdate, releaseTaskUpdate, reviewTaskUpdate, submitTaskUpdate, taskStateQuery, taskIdOf } from '../../src/contracts/tasks.js';
import { createAccount } from '../../src/db/accounts.js';
import { filesOf, getOrder } from '../../src/db/orders.js';
import { getTask, saveDraft, tasksOfOrder } from '../../src/db/tasks.js';
import { createWorker, earningsOf } from '../../src/db/workers.js';
import { createDocumentSandbox, DEFAULT_SANDBOX } from '../../src/documents/sandbox/index.js';
import { createOutboundClient } from '../../src/net/outbound.js';
import { payRatesSchema } from '../../src/products/payRates.js';
import { PRODUCTS, priceTableSchema, type PriceTable } from '../../src/products/registry.js';
import { orderPlan } from '../../src/products/shared.js';
import { localFileStore } from '../../src/storage/fileStore.js';
import { payloadDataConverter } from '../../src/temporal/payloadCodec.js';
import type { orderWorkflow } from '../../src/workflows/order.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { waitFor } from '../helpers/net.js';
import { startTimeSkipping } from '../helpers/timeSkipping.js';

const MINUTE = 60_000;
const LEASE_MS = 10 * MINUTE;
const dataConverter = payloadDataConverter([{ id: 'workbench-test', key: randomBytes(32) }]);

let env: TestWorkflowEnvironment;
/** Its `result()` does not skip time (the environment's client skips to the next timer of any open workflow while it waits). */
let noSkip: Client;
let database: TestDatabase;
let deps: ActivityDeps;
let dataDir: string;
let accountId: number;
let nextOrderId = 91_000;
const workers: Record<'ann' | 'bob' | 'rita' | 'outsider', { id: number; skills: string[] }> = {} as never;

beforeAll(async () => {
  env = await startTimeSkipping(dataConverter);
  noSkip = new Client({ connection: env.connection, dataConverter });
  database = await freshDatabase('pglite');
  dataDir = await mkdtemp(join(tmpdir(), 'workbench-wf-'));
  const secretKey = randomBytes(32);
  deps = {
    db: database.db,
    files: localFileStore(join(dataDir, 'files')),
    secretKey,
    publicBaseUrl: 'http://orders.test',
    callbacks: { retryMinMs: 5, retryMaxMs: 20, timeoutMs: 2000 },
    priceTable: priceTableSchema.parse(JSON.parse(await readFile('config/prices.json', 'utf8'))) as PriceTable,
    payRates: payRatesSchema.parse(JSON.parse(await readFile('config/pay-rates.json', 'utf8'))),
    engines: {},
    media: { maxBytes: 1024 * 1024, maxSeconds: 36_000, timeoutMs: 2000 },
    outbound: createOutboundClient({ allowCidrs: ['127.0.0.0/8'], log: () => {} }),
    documentReader: createDocumentSandbox({ ...DEFAULT_SANDBOX, warm: false }),
    taskLeaseMs: LEASE_MS,
  };
  accountId = (await createAccount(database.db, secretKey, { name: 'workbench', balanceCents: 1_000_000 })).accountId;
  for (const [name, skills] of [
    ['ann', ['transcription:english']],
    ['bob', ['transcription:english']],
    ['rita', ['review:english']],
    ['outsider', ['transcription:french']],
  ] as const) {
    workers[name] = { id: (await createWorker(database.db, secretKey, { name, skills: [...skills] })).workerId, skills: [...skills] };
  }
});

afterAll(async () => {
  await env?.teardown();
  await deps?.outbound.close();
  await deps?.documentReader.close();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

let seq = 0;
async function withWorker<T>(body: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = `workbench-test-${++seq}`;
  const activities = createActivities(deps);
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    activities,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    dataConverter,
  });
  // Engine work and drafts have task queues of their own, as src/temporal/worker.ts sets them up.
  const engines = await Worker.create({ connection: env.nativeConnection, taskQueue: engineTaskQueue(taskQueue), activities, dataConverter });
  const drafts = await Worker.create({ connection: env.nativeConnection, taskQueue: draftTaskQueue(taskQueue), activities, dataConverter });
  return drafts.runUntil(engines.runUntil(worker.runUntil(body(taskQueue))));
}

/** A human transcription order of `seconds`, placed as the API places it (Update-with-Start). */
async function placeTranscription(taskQueue: string, seconds: number, extra: { qualityCheckProbability?: number; params?: Record<string, unknown> } = {}) {
  const product = PRODUCTS.transcription;
  const params = product.request.parse({ url: 'http://media.test/a.mp3', language: 'english', ...extra.params }) as Record<string, unknown>;
  const id = (nextOrderId += 10);
  const input: OrderWorkflowInput = {
    order: {
      id,
      accountId,
      priceCents: 100,
      seconds,
      words: 0,
      params,
      callbackUrl: null,
      ...orderPlan(product, params),
    },
    payment: { by: 'customer', payBy: new Date((await env.currentTimeMs()) + 3_600_000).toISOString() },
    qualityCheckProbability: extra.qualityCheckProbability ?? 0,
    qualityCheckWindowMs: 72 * 3_600_000,
    workbench: { leaseMs: LEASE_MS, partSeconds: 360 },
  };
  const start = new WithStartWorkflowOperation<typeof orderWorkflow>('orderWorkflow', {
    workflowId: orderWorkflowId(id),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: startSearchAttributes(input.order),
  });
  await env.client.workflow.executeUpdateWithStart(placeOrderUpdate, { args: [undefined], startWorkflowOperation: start });
  await start.workflowHandle();
  return { id, handle: noSkip.workflow.getHandle<typeof orderWorkflow>(orderWorkflowId(id)) };
}

/** Once its row exists (the task is open): the task and the workflow holding it (its order's), as the API finds them. */
async function openTask(orderId: number, name: string) {
  const taskId = taskIdOf(orderId, name);
  await waitFor(async () => (await getTask(database.db, taskId)) !== undefined, `task ${taskId}`);
  const { workflowId } = (await getTask(database.db, taskId))!;
  expect(workflowId).toBe(orderWorkflowId(orderId));
  const handle = env.client.workflow.getHandle(workflowId!);
  return { taskId, handle, state: () => handle.query(taskStateQuery, taskId) };
}

type OpenTask = Awaited<ReturnType<typeof openTask>>;
const claim = (task: OpenTask, who: keyof typeof workers) =>
  task.handle.executeUpdate(claimTaskUpdate, { args: [{ taskId: task.taskId, workerId: workers[who].id, skills: workers[who].skills }] });
const submit = (task: OpenTask, who: keyof typeof workers, text: string) =>
  task.handle.executeUpdate(submitTaskUpdate, { args: [{ taskId: task.taskId, workerId: workers[who].id, text }] });
const review = (task: OpenTask, text: string, decision: 'approve' | 'send_back', note?: string) =>
  task.handle.executeUpdate(reviewTaskUpdate, { args: [{ taskId: task.taskId, workerId: workers.rita.id, text, decision, ...(note ? { note } : {}) }] });

async function refusal(update: Promise<unknown>): Promise<string> {
  const err = await update.then(
    () => {
      throw new Error('the update was accepted');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((err as WorkflowUpdateFailedError).cause).toBeInstanceOf(ApplicationFailure);
  return (err as WorkflowUpdateFailedError).cause!.message;
}

/** The delivered transcript of a finished order, as its result file holds it. */
async function delivered(orderId: number): Promise<{ segments: Array<{ text: string; speaker?: string; start?: number }> }> {
  const [file] = await filesOf(database.db, orderId);
  return JSON.parse((await deps.files.get(file!.blobKey)).toString('utf8'));
}

describe('the workbench on the time-skipping test server', () => {
  // First: env.sleep stalls on this test server once an earlier test cancelled a claimed task's workflow.
  it('a lease renewed by saves; without them the task returns to the queue with its draft', async () => {
    await withWorker(async (taskQueue) => {
      const { id, handle } = await placeTranscription(taskQueue, 120);
      const task = await openTask(id, 'work');
      await claim(task, 'ann');
      expect(await saveDraft(database.db, task.taskId, workers.ann.id, '[00:00:01] Speaker 1: half done')).toBe(true);
      // At the lease's end the save renews it; a lease later with no save, it expires.
      await env.sleep(LEASE_MS + MINUTE);
      expect((await task.state()).status).toBe('claimed');
      await env.sleep(LEASE_MS + MINUTE);
      await waitFor(async () => (await task.state()).status === 'waiting', 'the lease expiry');
      const row = (await getTask(database.db, task.taskId))!;
      expect(row).toMatchObject({ status: 'waiting', claimedBy: null, leaseExpiries: 1, draft: '[00:00:01] Speaker 1: half done' });
      // Ann's claim is gone: her save is refused; Bob takes the task with her draft and finishes it.
      expect(await saveDraft(database.db, task.taskId, workers.ann.id, 'late')).toBe(false);
      await claim(task, 'bob');
      await submit(task, 'bob', '[00:00:01] Speaker 1: done by Bob');
      const reviewTask = await openTask(id, 'review-1');
      await claim(reviewTask, 'rita');
      await review(reviewTask, '[00:00:01] Speaker 1: done by Bob', 'approve');
      expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      expect((await delivered(id)).segments.map((s) => s.text)).toEqual(['done by Bob']);
    });
  });

  it('claims: one claim wins, a worker without the skill is refused', async () => {
    await withWorker(async (taskQueue) => {
      const { id, handle } = await placeTranscription(taskQueue, 120);
      const task = await openTask(id, 'work');
      expect(await refusal(claim(task, 'outsider'))).toMatch(/needs the skill transcription:english/);
      const results = await Promise.allSettled([claim(task, 'ann'), claim(task, 'bob')]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((lost.reason as WorkflowUpdateFailedError).cause!.message).toMatch(/already claimed/);
      const state = await task.state();
      expect(state.status).toBe('claimed');
      expect((await getTask(database.db, task.taskId))!.claimedBy).toBe(state.claimedBy);
      await handle.executeUpdate(completeUpdate, {
        args: [{ files: [{ kind: 'transcription', blobKey: await deps.files.put(Buffer.from('done')), fileName: 'done.txt' }] }],
      });
      expect(await handle.result()).toMatchObject({ status: 'finished' });
      // Closed with the order; held by the order's workflow: no child workflow was ever started for it.
      expect((await getTask(database.db, task.taskId))?.status).toBe('closed');
      await expect(noSkip.workflow.getHandle(task.taskId).describe()).rejects.toThrow(/not found/i);
    });
  });

  it('splits 20 minutes into parts done by two workers, merged in time order with speakers carried', async () => {
    await withWorker(async (taskQueue) => {
      const { id, handle } = await placeTranscription(taskQueue, 1200, { params: { number_of_speakers: '1_or_2' } });
      const parts = await Promise.all([1, 2, 3, 4].map((n) => openTask(id, `part-${n}`)));
      const spans = (await tasksOfOrder(database.db, id)).map((t) => [t.partNo, t.spanStart, t.spanEnd]);
      expect(spans).toEqual(
        expect.arrayContaining([
          [1, 0, 360],
          [2, 360, 720],
          [3, 720, 1080],
          [4, 1080, 1200],
        ]),
      );
      // Submitted out of order; part 3 starts mid-turn without a label.
      await claim(parts[3]!, 'bob');
      await submit(parts[3]!, 'bob', '[00:18:00] Speaker 1: part four');
      await claim(parts[2]!, 'bob');
      await submit(parts[2]!, 'bob', '[00:12:00] and part three continues');
      await claim(parts[0]!, 'ann');
      await submit(parts[0]!, 'ann', '[00:00:00] Speaker 1: part one');
      await claim(parts[1]!, 'ann');
      await submit(parts[1]!, 'ann', '[00:06:00] Speaker 2: part two');
      const reviewTask = await openTask(id, 'review-1');
      const merged = (await getTask(database.db, reviewTask.taskId))!.draft;
      await claim(reviewTask, 'rita');
      await review(reviewTask, merged, 'approve');
      expect(await handle.result()).toMatchObject({ status: 'finished' });
      const segments = (await delivered(id)).segments;
      expect(segments.map((s) => [s.start, s.speaker, s.text])).toEqual([
        [0, 'Speaker 1', 'part one'],
        [360, 'Speaker 2', 'part two'],
        [720, 'Speaker 2', 'and part three continues'],
        [1080, 'Speaker 1', 'part four'],
      ]);
      // Each part paid to its worker on approval, and the review.
      const paid = async (who: keyof typeof workers) =>
        (await earningsOf(database.db, workers[who].id)).entries
          .filter((e) => e.orderId === id)
          .map((e) => e.taskId)
          .sort();
      expect(await paid('ann')).toEqual([taskIdOf(id, 'part-1'), taskIdOf(id, 'part-2')]);
      expect(await paid('bob')).toEqual([taskIdOf(id, 'part-3'), taskIdOf(id, 'part-4')]);
      expect(await paid('rita')).toEqual([taskIdOf(id, 'review-1')]);
    });
  });

  it('a reviewer sends work back with a note; the worker fixes it; pay follows the approval', async () => {
    await withWorker(async (taskQueue) => {
      const { id, handle } = await placeTranscription(taskQueue, 120);
      const work = await openTask(id, 'work');
      await claim(work, 'ann');
      const annBefore = (await earningsOf(database.db, workers.ann.id)).totalCents;
      await submit(work, 'ann', '[00:00:00] Speaker 1: teh first try');
      const first = await openTask(id, 'review-1');
      await claim(first, 'rita');
      expect(await refusal(review(first, 'x', 'send_back'))).toMatch(/needs a note/);
      await review(first, '[00:00:00] Speaker 1: teh first try', 'send_back', 'Spelling: "teh"');
      const fix = await openTask(id, 'fix-1');
      // Sent back to Ann, already hers, with the note; nobody else may take it.
      expect(await getTask(database.db, fix.taskId)).toMatchObject({ status: 'claimed', claimedBy: workers.ann.id, note: 'Spelling: "teh"', payCents: 0 });
      expect(await refusal(claim(fix, 'bob'))).toMatch(/already claimed/);
      // Not paid while the work is rejected.
      expect((await earningsOf(database.db, workers.ann.id)).totalCents).toBe(annBefore);
      await submit(fix, 'ann', '[00:00:00] Speaker 1: the first try');
      const second = await openTask(id, 'review-2');
      await claim(second, 'rita');
      await review(second, '[00:00:00] Speaker 1: the first try', 'approve');
      expect(await handle.result()).toMatchObject({ status: 'finished' });
      expect((await delivered(id)).segments[0]!.text).toBe('the first try');
      const work1 = (await getTask(database.db, work.taskId))!;
      expect(work1.payCents).toBeGreaterThan(0);
      expect((await earningsOf(database.db, workers.ann.id)).totalCents).toBe(annBefore + work1.payCents);
    });
  });

  it("an operator releases and reassigns a claim; the quality check puts the finished order in the reviewers' queue and a fix there sends quality_fix", async () => {
    await withWorker(async (taskQueue) => {
      const { id, handle } = await placeTranscription(taskQueue, 60, { qualityCheckProbability: 1 });
      const work = await openTask(id, 'work');
      await claim(work, 'ann');
      await work.handle.executeUpdate(releaseTaskUpdate, {
        args: [{ taskId: work.taskId, reason: 'test', to: { workerId: workers.bob.id, skills: workers.bob.skills } }],
      });
      expect(await getTask(database.db, work.taskId)).toMatchObject({ status: 'claimed', claimedBy: workers.bob.id });
      expect(
        await refusal(
          work.handle.executeUpdate(releaseTaskUpdate, {
            args: [{ taskId: work.taskId, reason: 'x', to: { workerId: workers.rita.id, skills: workers.rita.skills } }],
          }),
        ),
      ).toMatch(/lacks the skill/);
      await submit(work, 'bob', '[00:00:00] Speaker 1: checked later');
      const reviewTask = await openTask(id, 'review-1');
      await claim(reviewTask, 'rita');
      await review(reviewTask, '[00:00:00] Speaker 1: checked later', 'approve');
      await waitFor(async () => (await handle.query(statusQuery)).status === 'finished', 'the finish');
      expect((await handle.query(statusQuery)).qualityCheck).toBe('pending');
      const qc = await openTask(id, 'qc');
      await claim(qc, 'rita');
      await review(qc, '[00:00:00] Speaker 1: checked and fixed later', 'approve');
      expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'fixed' });
      expect((await getOrder(database.db, id))!.qcStatus).toBe('fixed');
      expect((await delivered(id)).segments[0]!.text).toBe('checked and fixed later');
    });
  });

  it('order-ops complete finishes the remaining stages at once: open tasks close', async () => {
    await withWorker(async (taskQueue) => {
      const { id, handle } = await placeTranscription(taskQueue, 60);
      const work = await openTask(id, 'work');
      await claim(work, 'ann');
      await handle.executeUpdate(completeUpdate, {
        args: [{ files: [{ kind: 'transcription', blobKey: await deps.files.put(Buffer.from('by hand')), fileName: 'done.txt' }] }],
      });
      expect(await handle.result()).toMatchObject({ status: 'finished' });
      await waitFor(async () => (await getTask(database.db, work.taskId))?.status === 'closed', 'the task closed');
      await expect(submit(work, 'ann', 'too late')).rejects.toThrow();
    });
  });
});
