// Deploying the order workflow that holds its own tasks while orders run: a human transcription
// placed, charged and given its work task (a child workflow of its own) by the workflow code of the
// last commit before the change (built from git), then finished on the current code. The worker's
// claim and submission reach the child the task row names; the review that opens on the new code
// stays in a child too (the order replays its old path), and the order is delivered. An order
// placed beside it on the new code holds its tasks in its own workflow.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { getTask } from '../../src/db/tasks.js';
import { BEFORE_TASKS_HELD_BY_ORDER } from '../helpers/legCatalog.js';
import { describeNeeding } from '../helpers/legs.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { oldWorkflowCode, withOldWorker } from '../helpers/oldCode.js';
import { startService, type TestService } from '../helpers/service.js';
import { WorkerSession } from '../helpers/workerSession.js';

describeNeeding('gitHistory', 'a human order whose task was opened in a child workflow, finished after orders hold their tasks', () => {
  let service: TestService;
  let media: MediaServer;
  let old: { code: string; remove(): Promise<void> };

  beforeAll(async () => {
    [old, service, media] = await Promise.all([oldWorkflowCode(BEFORE_TASKS_HELD_BY_ORDER), startService({ inProcessWorker: false }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), old?.remove()]);
  });

  it('the old code opens the work in a child; the new code routes the claim there, runs the review and delivers', async () => {
    const create = async (name: string, skills: string) => (await service.ops('POST', '/ops/workers', { name, skills })).body as { sign_in_token: string };
    const [ann, rita] = await Promise.all([create('ann', 'transcription:english'), create('rita', 'review:english')]).then((made) =>
      Promise.all(made.map((w) => WorkerSession.signIn(service.baseUrl, w.sign_in_token))),
    );
    const taskOf = (orderId: number, name: string) => waitFor(async () => getTask(service.database.db, `task-${orderId}-${name}`), `task-${orderId}-${name}`);
    const place = async () => {
      const account = await service.createAccount(20);
      const placed = await service.post('/api/v4/transcriptions', { api_token: account.token, mode: 'live', url: media.audio(30), language: 'english' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return placed.body.order_id as number;
    };

    const oldOrder = await withOldWorker(
      service,
      old.code,
      async () => {
        const id = await place();
        const work = await taskOf(id, 'work');
        // Opened by the task's own child workflow: the row names no other workflow.
        expect(work.workflowId).toBeNull();
        await waitFor(async () => (await service.temporal.workflow.getHandle(work.id).describe()).status.name === 'RUNNING', 'the task workflow');
        return id;
      },
      { engines: true },
    );

    await service.startWorker();
    const work = `task-${oldOrder}-work`;
    expect((await ann!.request('POST', `/work/tasks/${work}/claim`, {})).location).toBe(`/work/tasks/${work}`);
    expect((await ann!.request('POST', `/work/tasks/${work}/submit`, { text: 'Speaker 1: said before the change' })).location).toBe('/work/queue');
    const review = await taskOf(oldOrder, 'review-1');
    expect(review.workflowId).toBeNull();
    await rita!.request('POST', `/work/tasks/${review.id}/claim`, {});
    await rita!.request('POST', `/work/tasks/${review.id}/review`, { text: 'Speaker 1: said before the change.', decision: 'approve' });
    expect(await service.temporal.workflow.getHandle(orderWorkflowId(oldOrder)).result()).toMatchObject({ status: 'finished' });
    expect(await getTask(service.database.db, review.id)).toMatchObject({ status: 'approved', submittedBy: expect.any(Number) });

    // Placed on the new code: the order's workflow holds the task, no child is started.
    const newOrder = await place();
    const held = await taskOf(newOrder, 'work');
    expect(held.workflowId).toBe(orderWorkflowId(newOrder));
    expect((await ann!.request('POST', `/work/tasks/${held.id}/claim`, {})).location).toBe(`/work/tasks/${held.id}`);
    await expect(service.temporal.workflow.getHandle(held.id).describe()).rejects.toThrow(/not found/i);
  });
});
