// Deploying the patch baseline while orders run: a human transcription placed, charged and given its
// work task by the workflow code of the last commit before the baseline (built from git), with a
// marker for each patch it reached, then finished on the current code, which replays it off the
// baseline: the claim, the submission and the review reach it, and it is delivered.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { getTask } from '../../src/db/tasks.js';
import { BASELINE, PATCHES } from '../../src/workflows/patches.js';
import { patchMarkerIds } from '../helpers/histories.js';
import { BEFORE_PATCH_BASELINE } from '../helpers/legCatalog.js';
import { describeNeeding } from '../helpers/legs.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { oldWorkflowCode, withOldWorker } from '../helpers/oldCode.js';
import { startService, type TestService } from '../helpers/service.js';
import { WorkerSession } from '../helpers/workerSession.js';

describeNeeding('gitHistory', 'a human order placed before the patch baseline, finished on it', () => {
  let service: TestService;
  let media: MediaServer;
  let old: { code: string; remove(): Promise<void> };

  beforeAll(async () => {
    [old, service, media] = await Promise.all([oldWorkflowCode(BEFORE_PATCH_BASELINE), startService({ inProcessWorker: false }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), old?.remove()]);
  });

  it('the old code charges the order and opens its work; the new code runs its claim, submission and review and delivers it', async () => {
    const create = async (name: string, skills: string) => (await service.ops('POST', '/ops/workers', { name, skills })).body as { sign_in_token: string };
    const [ann, rita] = await Promise.all([create('ann', 'transcription:english'), create('rita', 'review:english')]).then((made) =>
      Promise.all(made.map((w) => WorkerSession.signIn(service.baseUrl, w.sign_in_token))),
    );
    const taskOf = (orderId: number, name: string) =>
      waitFor(async () => {
        const task = await getTask(service.database.db, `task-${orderId}-${name}`);
        return task?.status === 'waiting' ? task : undefined;
      }, `task-${orderId}-${name}`);

    const orderId = await withOldWorker(
      service,
      old.code,
      async () => {
        const account = await service.createAccount(20);
        const placed = await service.post('/api/v4/transcriptions', { api_token: account.token, mode: 'live', url: media.audio(30), language: 'english' });
        expect(placed.status, JSON.stringify(placed.body)).toBe(200);
        await taskOf(placed.body.order_id, 'work');
        return placed.body.order_id as number;
      },
      { engines: true },
    );
    const handle = service.temporal.workflow.getHandle(orderWorkflowId(orderId));
    const patchIds = async () => patchMarkerIds(await handle.fetchHistory());
    // The old code's markers, one per patch reached, and no baseline.
    expect(await patchIds()).toEqual([PATCHES.chargeLocalActivity.id, PATCHES.lateOrderTimer.id, PATCHES.workbench.id, PATCHES.tasksHeldByOrder.id]);

    await service.startWorker();
    const work = `task-${orderId}-work`;
    expect((await ann!.request('POST', `/work/tasks/${work}/claim`, {})).location).toBe(`/work/tasks/${work}`);
    expect((await ann!.request('POST', `/work/tasks/${work}/submit`, { text: 'Speaker 1: said before the baseline' })).location).toBe('/work/queue');
    const review = await taskOf(orderId, 'review-1');
    await rita!.request('POST', `/work/tasks/${review.id}/claim`, {});
    await rita!.request('POST', `/work/tasks/${review.id}/review`, { text: 'Speaker 1: said before the baseline.', decision: 'approve' });
    expect(await handle.result()).toMatchObject({ status: 'finished' });
    // Finished off the baseline: the new code asked for no patch of its own on the way.
    const after = await patchIds();
    expect(after).not.toContain(BASELINE.id);
    expect(after.every((id) => Object.values(PATCHES).some((p) => p.id === id))).toBe(true);
  });
});
