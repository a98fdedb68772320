// Late orders in the database (docs/operations.md, Late orders): `late_at` is set once, only on a
// paid order, and `order-ops pending` (GET /ops/orders/pending) lists late orders first with `late: true`.
// The timer that decides it is tested on the time-skipping server (test/workflow/orderWorkflow.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/databases.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startService, type TestService } from '../helpers/service.js';
import { getOrder, markOrderLate } from '../../src/db/orders.js';

describe.each(ENGINES)('late orders on %s', (engine) => {
  let service: TestService;
  let media: MediaServer;
  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ engine }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  it('marks a paid order once, lists late orders first, never marks a settled one', async () => {
    const { token } = await service.createAccount(50);
    const place = async () => {
      const res = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: media.audio(60), language: 'english' });
      expect(res.status).toBe(200);
      return res.body.order_id as number;
    };
    const [first, second, third] = [await place(), await place(), await place()];

    const marked = await markOrderLate(service.database.db, second);
    expect(marked).toMatchObject({ id: second, status: 'paid', lateAt: expect.any(Date) });
    expect(await markOrderLate(service.database.db, second)).toBeUndefined();
    expect((await getOrder(service.database.db, second))!.lateAt).toEqual(marked!.lateAt);

    const pending = await service.ops('GET', '/ops/orders/pending');
    expect(pending.status).toBe(200);
    const listed = (pending.body.orders as Array<{ order_id: number; late: boolean; late_at?: string }>).filter((o) => [first, second, third].includes(o.order_id));
    expect(listed.map((o) => [o.order_id, o.late])).toEqual([[second, true], [first, false], [third, false]]);
    expect(listed[0]!.late_at).toEqual(expect.any(String));

    expect((await service.complete(first, 'first.txt', 'Done.')).status).toBe(200);
    expect(await markOrderLate(service.database.db, first)).toBeUndefined();
    expect((await getOrder(service.database.db, first))!.lateAt).toBeNull();
  });
});
