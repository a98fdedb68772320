// Callback delivery: 10 attempts in total at random intervals, each recorded; quality-check fixes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { callbackAttemptsOf } from '../../src/db/orders.js';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { recordHistory } from '../helpers/histories.js';

describeOnEachDatabase('callbacks and quality checks', (engine) => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    // Every finished order is picked for a quality check here.
    [service, media, receiver] = await Promise.all([
      startService({ engine, qualityCheckProbability: 1, callbackRetryMs: [10, 60] }),
      startMediaServer(),
      startCallbackReceiver(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  it('a receiver that never answers ok gets exactly 10 attempts, each recorded', async () => {
    const stubborn = await startCallbackReceiver();
    stubborn.answer = { status: 200, body: 'received' };
    try {
      const { token } = await service.createAccount(10);
      const { orderId } = await placeOrder(service, { token, fields: englishAudio(media), callbackUrl: stubborn.url });
      await service.complete(orderId, 'a.txt', 'Text.');
      const attempts = await waitFor(async () => {
        const rows = await callbackAttemptsOf(service.database.db, orderId);
        return rows.length >= 10 && rows;
      }, '10 attempts');
      // The workflow has given up on this callback and still waits for its quality check.
      await new Promise((r) => setTimeout(r, 500));
      expect(stubborn.received).toHaveLength(10);
      expect(await callbackAttemptsOf(service.database.db, orderId)).toHaveLength(10);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(attempts.every((a) => a.outcome === 'wrong_answer' && a.statusCode === 200 && a.detail === 'answered 200: "received"')).toBe(true);
      const pauses = attempts.slice(1).map((a, i) => a.createdAt.getTime() - attempts[i]!.createdAt.getTime());
      expect(Math.min(...pauses)).toBeGreaterThanOrEqual(10);
      // Each failed attempt but the last says when the next is due, and the next came no earlier.
      expect(attempts.map((a) => a.nextAttemptAt !== null)).toEqual([true, true, true, true, true, true, true, true, true, false]);
      attempts.slice(1).forEach((a, i) => expect(a.createdAt.getTime()).toBeGreaterThanOrEqual(attempts[i]!.nextAttemptAt!.getTime() - 5));
      const listed = await service.ops('GET', `/ops/orders/${orderId}/callbacks`);
      expect(listed.body.attempts[0].next_attempt_at).toBe(attempts[0]!.nextAttemptAt!.toISOString());
      expect((await service.ops('GET', `/ops/orders/${orderId}`)).body.last_callback).toMatchObject({ event: 'finished', next_attempt_at: null });
      await service.ops('POST', `/ops/orders/${orderId}/qc`, { pass: true });
      expect(await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).result()).toEqual({ status: 'finished', qualityCheck: 'passed' });
    } finally {
      await stubborn.close();
    }
  });

  it('a receiver that fails first and then answers ok is delivered on a later attempt', async () => {
    const flaky = await startCallbackReceiver();
    flaky.answer = { status: 503, body: 'busy' };
    try {
      const { token } = await service.createAccount(10);
      const { orderId } = await placeOrder(service, { token, fields: englishAudio(media), callbackUrl: flaky.url });
      await service.complete(orderId, 'a.txt', 'Text.');
      await waitFor(() => flaky.received.length >= 2, 'two failed attempts');
      flaky.answer = { status: 200, body: 'ok' };
      const attempts = await waitFor(async () => {
        const rows = await callbackAttemptsOf(service.database.db, orderId);
        return rows.some((r) => r.outcome === 'ok') && rows;
      }, 'a delivered attempt');
      expect(attempts.slice(0, 2).map((a) => [a.outcome, a.statusCode])).toEqual([
        ['http_error', 503],
        ['http_error', 503],
      ]);
      expect(attempts.at(-1)!.outcome).toBe('ok');
      expect(attempts.filter((a) => a.outcome === 'ok')).toHaveLength(1);
      await service.ops('POST', `/ops/orders/${orderId}/qc`, { pass: true });
      if (engine === 'pglite') await recordHistory(service, orderId, 'transcription-callback-retried');
    } finally {
      await flaky.close();
    }
  });

  it('qc --fix replaces the file and sends a further callback of the same shape', async () => {
    const { token } = await service.createAccount(10);
    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media), callbackUrl: receiver.url });
    const done = await service.complete(orderId, 'a.txt', 'Speaker 1: teh first version.');
    expect(done.body).toEqual({ order_id: orderId, status: 'finished', quality_check: 'pending' });
    const mine = () => receiver.received.filter((c) => c.fields.order_id === String(orderId));
    await waitFor(() => mine().length === 1, 'the first callback');
    const url = `/api/v4/orders/${orderId}/files/transcription?api_token=${token}&format=text`;
    expect((await service.get(url)).body).toBe('Speaker 1: teh first version.\n');

    const fixed = await service.ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: the first version.'));
    const qc = await service.ops('POST', `/ops/orders/${orderId}/qc`, { fix: [{ kind: 'transcription', key: fixed.body.key, file_name: 'fixed.txt' }] });
    expect(qc.body).toEqual({ order_id: orderId, status: 'finished', quality_check: 'fixed' });
    await waitFor(() => mine().length === 2, 'the second callback');
    expect(mine()[1]!.fields).toEqual(mine()[0]!.fields);
    expect((await service.get(url)).body).toBe('Speaker 1: the first version.\n');
    const again = await service.ops('POST', `/ops/orders/${orderId}/qc`, { pass: true });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(new RegExp(`^order ${orderId} (has no open quality check|is finished)`));
    // Recorded once the receiver's answer is in, which may be just after the receiver has it.
    const events = await waitFor(async () => {
      const recorded = (await callbackAttemptsOf(service.database.db, orderId)).map((a) => [a.event, a.outcome]);
      return recorded.length >= 2 ? recorded : undefined;
    }, 'both attempts recorded');
    expect(events).toEqual([
      ['finished', 'ok'],
      ['quality_fix', 'ok'],
    ]);
    if (engine === 'pglite') await recordHistory(service, orderId, 'transcription-quality-check-fixed');
  });
});
