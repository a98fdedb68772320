// What `additional_review` pays for, through the running service: a translation whose translator
// submits, whose first reviewer approves, and whose second reviewer (neither of them) approves
// before the customer's callback arrives; the second review paid at its own rate and shown in the
// order's timeline and in `order-ops show`. Without `additional_review`, one review, as before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { recordHistory } from '../helpers/histories.js';
import { placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { getTask, tasksOfOrder } from '../../src/db/tasks.js';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { getOrder } from '../../src/db/orders.js';

const LETTER = 'Dear customer,\n\nyour order is ready. We thank you for your patience and hope to see you again soon.';

describeOnEachDatabase('the second review an order with additional_review pays for', (engine) => {
  let service: TestService;
  let docs: DocumentServer;
  let receiver: CallbackReceiver;
  let tina: WorkerSession; // translates, and reviews French too
  let rea: WorkerSession;
  let rex: WorkerSession;

  beforeAll(async () => {
    [service, docs, receiver] = await Promise.all([startService({ engine }), startDocumentServer(), startCallbackReceiver()]);
    const create = async (name: string, skills: string) =>
      (await service.ops('POST', '/ops/workers', { name, skills })).body as { worker_id: number; sign_in_token: string };
    const made = await Promise.all([
      create('tina', 'translation:english>french,review:french'),
      create('rea', 'review:french'),
      create('rex', 'review:french'),
    ]);
    [tina, rea, rex] = (await Promise.all(made.map((w) => WorkerSession.signIn(service.baseUrl, w.sign_in_token)))) as [
      WorkerSession,
      WorkerSession,
      WorkerSession,
    ];
  });
  afterAll(async () => {
    await Promise.all([service?.close(), docs?.close(), receiver?.close()]);
  });

  async function placeTranslation(token: string, additionalReview: boolean, name: string): Promise<number> {
    const { orderId } = await placeOrder(service, {
      token,
      path: 'translations',
      fields: {
        url: docs.serve(`/${name}.txt`, LETTER, 'text/plain'),
        translate_from: 'english',
        translate_to: 'french',
        additional_review: String(additionalReview),
      },
      callbackUrl: `${receiver.url}/${name}`,
    });
    return orderId;
  }
  const taskOf = (orderId: number, name: string) => waitFor(async () => getTask(service.database.db, `task-${orderId}-${name}`), `task-${orderId}-${name}`);
  const callbacksTo = (name: string) => receiver.received.filter((c) => c.path === `/${name}`);

  async function translateAndApprove(orderId: number): Promise<void> {
    const work = await taskOf(orderId, 'work');
    expect((await tina.request('POST', `/work/tasks/${work.id}/claim`, {})).location).toBe(`/work/tasks/${work.id}`);
    expect((await tina.request('POST', `/work/tasks/${work.id}/submit`, { text: 'Cher client, votre commande est prête.' })).location).toBe('/work/queue');
    const review = await taskOf(orderId, 'review-1');
    // The translator may not review her own translation.
    expect((await tina.request('POST', `/work/tasks/${review.id}/claim`, {})).location).toBe('/work/queue');
    expect((await rea.request('POST', `/work/tasks/${review.id}/claim`, {})).location).toBe(`/work/tasks/${review.id}`);
    expect(
      (await rea.request('POST', `/work/tasks/${review.id}/review`, { text: 'Cher client, votre commande est prête.', decision: 'approve' })).location,
    ).toBe('/work/queue');
  }

  it('the translator submits, reviewer 1 approves, reviewer 2 (neither of them) approves, then the callback; paid and shown', async () => {
    const account = await service.createAccount(100);
    const orderId = await placeTranslation(account.token, true, 'reviewed-twice');
    await translateAndApprove(orderId);

    // The plan fixed at placement is kept on the order, its review stages with it.
    expect((await getOrder(service.database.db, orderId))!.plan).toMatchObject({
      fulfilment: 'operator',
      resultKinds: ['translation'],
      work: { stages: ['work', 'review', 'second_review'] },
    });
    const second = await taskOf(orderId, 'second-review-1');
    expect(second).toMatchObject({ stage: 'second_review', status: 'waiting', skill: 'review:french' });
    expect(callbacksTo('reviewed-twice')).toEqual([]); // not finished before the second review
    // Neither the translator nor the first reviewer sees it or may claim it; a third reviewer does.
    for (const [session, name] of [
      [tina, 'tina'],
      [rea, 'rea'],
      [rex, 'rex'],
    ] as const) {
      expect((await session.request('GET', '/work/queue')).text.includes(`Second review: translation, order ${orderId}`), name).toBe(name === 'rex');
    }
    for (const session of [tina, rea]) {
      expect((await session.request('POST', `/work/tasks/${second.id}/claim`, {})).location).toBe('/work/queue');
      expect((await session.request('GET', '/work/queue')).text).toContain('That task checks work you did on the order');
    }
    expect((await getTask(service.database.db, second.id))!.status).toBe('waiting');
    expect((await rex.request('POST', `/work/tasks/${second.id}/claim`, {})).location).toBe(`/work/tasks/${second.id}`);
    expect((await rex.request('GET', `/work/tasks/${second.id}`)).text).toContain(`Second review: translation, order ${orderId}`);
    expect(
      (await rex.request('POST', `/work/tasks/${second.id}/review`, { text: 'Cher client, votre commande est bien prête.', decision: 'approve' })).location,
    ).toBe('/work/queue');

    // Then the customer's callback, with the second reviewer's text.
    const [callback] = await waitFor(async () => {
      const got = callbacksTo('reviewed-twice');
      return got.length > 0 ? got : undefined;
    }, 'the callback');
    expect(callback!.fields).toMatchObject({ mode: 'live', order_id: String(orderId), translation_url: expect.any(String) });
    const translation = await fetch(`${callback!.fields.translation_url!}&format=text`);
    expect((await translation.text()).trim()).toBe('Cher client, votre commande est bien prête.');

    // Paid at its own rate: 20.00 a thousand words against the first review's 15.00.
    const tasks = await tasksOfOrder(service.database.db, orderId);
    const [review, secondReview] = [tasks.find((t) => t.stage === 'review')!, tasks.find((t) => t.stage === 'second_review')!];
    expect(secondReview.payCents).toBe(Math.round((2000 * secondReview.words) / 1000));
    expect(review.payCents).toBe(Math.round((1500 * review.words) / 1000));
    const earnings = await service.ops('GET', '/ops/earnings.csv');
    expect(String(earnings.body)).toContain(`,rex,${orderId},${secondReview.id},`);

    // order-ops show lists it; the account area's timeline shows it, naming no worker.
    const shown = (await service.ops('GET', `/ops/orders/${orderId}`)).body as {
      work: { stages: string[] };
      tasks: Array<{ stage: string; status: string; pay_cents: number }>;
    };
    expect(shown.work.stages).toEqual(['work', 'review', 'second_review']);
    expect(shown.tasks.map((t) => [t.stage, t.status])).toEqual([
      ['work', 'submitted'],
      ['review', 'approved'],
      ['second_review', 'approved'],
    ]);
    const customer = new WorkerSession(service.baseUrl);
    await customer.request('GET', '/account/sign-in');
    expect((await customer.request('POST', '/account/sign-in', { api_token: account.token })).status).toBe(303);
    const page = (await customer.request('GET', `/account/orders/${orderId}`)).text;
    const timeline = /<ol id="timeline">([\s\S]*?)<\/ol>/.exec(page)![1]!;
    expect(timeline).toContain('The work handed in');
    expect(timeline).toContain('Review: approved');
    expect(timeline).toContain('Second review (the additional review): approved');
    expect(timeline.indexOf('Review: approved')).toBeLessThan(timeline.indexOf('Second review'));
    expect(timeline).not.toMatch(/tina|rea\b|rex/);
    if (engine === 'pglite') await recordHistory(service, orderId, 'translation-additional-review');
  });

  it('without additional_review, one review, as before', async () => {
    const account = await service.createAccount(100);
    const orderId = await placeTranslation(account.token, false, 'reviewed-once');
    await translateAndApprove(orderId);
    await waitFor(async () => callbacksTo('reviewed-once').length > 0 || undefined, 'the callback');
    await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).result();
    expect((await tasksOfOrder(service.database.db, orderId)).map((t) => t.stage)).toEqual(['work', 'review']);
  });
});
