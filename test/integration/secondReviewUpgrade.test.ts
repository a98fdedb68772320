// Deploying second reviews while orders run: a translation with `additional_review` placed and
// charged by the workflow code of the last commit before them (built from git), then taken over by
// the current code while its draft is being made. The work and the first review are done on the new code,
// which reaches the second review live (the `second-review` patch is new there), so the order in
// flight gets the review its customer paid for.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orderWorkflowId, stagesOf, statusQuery, type WorkStage } from '../../src/contracts/orders.js';
import { getTask, tasksOfOrder } from '../../src/db/tasks.js';
import { BEFORE_SECOND_REVIEW } from '../helpers/legCatalog.js';
import { describeNeeding } from '../helpers/legs.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { waitFor } from '../helpers/net.js';
import { oldWorkflowCode, withOldWorker } from '../helpers/oldCode.js';
import { startService, type TestService } from '../helpers/service.js';
import { WorkerSession } from '../helpers/workerSession.js';

describeNeeding('gitHistory', 'a translation with additional_review placed before second reviews, finished after them', () => {
  let service: TestService;
  let docs: DocumentServer;
  let old: { code: string; remove(): Promise<void> };

  beforeAll(async () => {
    [old, service, docs] = await Promise.all([oldWorkflowCode(BEFORE_SECOND_REVIEW), startService({ inProcessWorker: false }), startDocumentServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), docs?.close(), old?.remove()]);
  });

  it('is charged by the old code; the new code runs the work, the review and the second review', async () => {
    const create = async (name: string, skills: string) => (await service.ops('POST', '/ops/workers', { name, skills })).body as { sign_in_token: string };
    const [translator, first, second] = await Promise.all([
      create('tom', 'translation:english>french'),
      create('ria', 'review:french'),
      create('rob', 'review:french'),
    ]).then((made) => Promise.all(made.map((w) => WorkerSession.signIn(service.baseUrl, w.sign_in_token))));
    const taskOf = (orderId: number, name: string) => waitFor(async () => getTask(service.database.db, `task-${orderId}-${name}`), `task-${orderId}-${name}`);

    const account = await service.createAccount(100);
    const orderId = await withOldWorker(service, old.code, async () => {
      const placed = await service.post('/api/v4/translations', {
        api_token: account.token,
        mode: 'live',
        url: docs.serve('/letter.txt', 'Dear customer, your order is ready.', 'text/plain'),
        translate_from: 'english',
        translate_to: 'french',
        additional_review: 'true',
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const id = placed.body.order_id as number;
      // Paid; its draft waits for the engine worker, which runs with the new code.
      expect(await service.temporal.workflow.getHandle(orderWorkflowId(id)).query(statusQuery)).toMatchObject({ status: 'paid' });
      return id;
    });

    // The new code takes over the worker's task queue.
    await service.startWorker();
    const work = await taskOf(orderId, 'work');
    await translator!.request('POST', `/work/tasks/${work.id}/claim`, {});
    expect((await translator!.request('POST', `/work/tasks/${work.id}/submit`, { text: 'Cher client, votre commande est prête.' })).location).toBe(
      '/work/queue',
    );
    const review = await taskOf(orderId, 'review-1');
    await first!.request('POST', `/work/tasks/${review.id}/claim`, {});
    await first!.request('POST', `/work/tasks/${review.id}/review`, { text: 'Cher client, votre commande est prête.', decision: 'approve' });
    const secondReview = await taskOf(orderId, 'second-review-1');
    expect(secondReview.stage).toBe('second_review');
    expect((await first!.request('POST', `/work/tasks/${secondReview.id}/claim`, {})).location).toBe('/work/queue');
    expect((await second!.request('POST', `/work/tasks/${secondReview.id}/claim`, {})).location).toBe(`/work/tasks/${secondReview.id}`);
    await second!.request('POST', `/work/tasks/${secondReview.id}/review`, { text: 'Cher client, votre commande est bien prête.', decision: 'approve' });
    await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).result();
    expect((await tasksOfOrder(service.database.db, orderId)).map((t) => [t.stage, t.status])).toEqual([
      ['work', 'submitted'],
      ['review', 'approved'],
      ['second_review', 'approved'],
    ]);
    const record = await service.get(`/api/v4/orders/${orderId}?api_token=${account.token}&mode=live`);
    expect(record.body.data).toMatchObject({ id: orderId, finished_at: expect.any(String) });
  });
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
