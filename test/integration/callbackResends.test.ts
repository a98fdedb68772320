// Resending an order's last callback from the account area (issue 51): a few resends per order and
// window, the rest refused with 429, Retry-After and the page saying when; and callback attempts
// numbered per order by the database, so numbers never repeat, whoever sends them (the workflow's
// deliveries, resends, both at once), on PGlite and PostgreSQL. The migration that added the
// unique numbering renumbers an order whose numbers repeated.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'node-html-parser';
import { sql } from 'drizzle-orm';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { freshDatabase } from '../helpers/databases.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder, withResults } from '../helpers/orders.js';
import { randomBytes } from 'node:crypto';
import { migrate, type Db } from '../../src/db/connection.js';
import { createAccount } from '../../src/db/accounts.js';
import { chargeWalletForOrder, nextOrderId } from '../../src/db/wallet.js';
import { callbackAttemptsOf, recordCallbackAttempt } from '../../src/db/orders.js';
import { DEFAULT_RESEND_LIMIT } from '../../src/orders/deliverCallback.js';

interface Listed {
  event: string;
  attempt: number;
  outcome: string;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** An order charged straight into the database, without a workflow (it sends no callback itself). */
async function directOrder(db: Db, accountId: number): Promise<number> {
  const id = await nextOrderId(db);
  await chargeWalletForOrder(
    db,
    withResults({
      id,
      accountId,
      product: 'translation',
      priceCents: 100,
      seconds: 0,
      words: 100,
      params: { translate_from: 'english', translate_to: 'german' },
      callbackUrl: null,
      turnaroundHours: 120,
      fulfilment: 'operator',
      resultKinds: ['translation'],
    }),
  );
  return id;
}

describeOnEachDatabase('callback resends and attempt numbers', (engine) => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let account: { accountId: number; token: string };
  let cookie: string;
  let csrf: string;

  const pairOf = (setCookie: string) => setCookie.split(';')[0]!;
  const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  const request = (method: string, path: string, opts: { cookie?: string; form?: Record<string, string> } = {}) =>
    fetch(service.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: opts.cookie ? { cookie: opts.cookie } : {},
      body: opts.form ? new URLSearchParams(opts.form) : undefined,
    });
  const csrfOf = async (res: Response) =>
    parse(await res.text())
      .querySelector('input[name="csrf"]')!
      .getAttribute('value')!;

  /** What `order-ops callbacks ORDER_ID` lists: the ops endpoint it prints, oldest first. */
  const listed = async (orderId: number): Promise<Listed[]> => (await service.ops('GET', `/ops/orders/${orderId}/callbacks`)).body.attempts as Listed[];
  const expectNumberedInOrder = (attempts: Listed[]) => expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));

  /** A finished order of the account whose first callback was delivered. */
  async function finishedOrder(): Promise<number> {
    const { orderId } = await placeOrder(service, { token: account.token, fields: englishAudio(media, 30) });
    expect((await service.complete(orderId, 'a.txt', 'Speaker 1: Hello.')).status).toBe(200);
    await waitFor(async () => (await listed(orderId)).some((a) => a.outcome === 'ok'), `the callback of order ${orderId}`);
    return orderId;
  }
  const resend = (orderId: number) => request('POST', `/account/orders/${orderId}/resend`, { cookie, form: { csrf } });
  /** A refused resend: 429, Retry-After within the window, and the page saying in how many seconds. */
  async function expectRefused(res: Response): Promise<number> {
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(wait)).toBe(true);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(DEFAULT_RESEND_LIMIT.windowMs / 1000);
    const alert = parse(await res.text()).querySelector('[role="alert"]')!.text;
    expect(alert).toMatch(/^The callback was not resent: .*it can be sent again in (\d+) seconds?\.$/);
    expect(Number(/again in (\d+) second/.exec(alert)![1])).toBe(wait);
    return wait;
  }

  beforeAll(async () => {
    [service, media, receiver] = await Promise.all([startService({ engine }), startMediaServer(), startCallbackReceiver()]);
    account = await service.createAccount(100, { callbackUrl: receiver.url });
    const form = await request('GET', '/account/sign-in');
    const preCookie = pairOf(cookieOf(form, 'order_sign_in')!);
    const signedIn = await request('POST', '/account/sign-in', { cookie: preCookie, form: { csrf: await csrfOf(form), api_token: account.token } });
    cookie = pairOf(cookieOf(signedIn, 'order_session')!);
    csrf = await csrfOf(await request('GET', '/account/orders', { cookie }));
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  it('six resends at once: the allowed number delivered, the rest refused with when to retry; attempts 1, 2, 3, … without repeats', async () => {
    const orderId = await finishedOrder();
    const before = receiver.received.length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => resend(orderId)));
    const sent = answers.filter((r) => r.status === 303);
    expect(sent).toHaveLength(DEFAULT_RESEND_LIMIT.count);
    for (const refused of answers.filter((r) => r.status !== 303)) await expectRefused(refused);
    expect(receiver.received.length - before).toBe(DEFAULT_RESEND_LIMIT.count);

    const attempts = await listed(orderId);
    expect(attempts).toHaveLength(1 + DEFAULT_RESEND_LIMIT.count);
    expectNumberedInOrder(attempts);
    expect(attempts.every((a) => a.event === 'finished' && a.outcome === 'ok')).toBe(true);
  });

  it('ten resends in a row: the allowed number delivered, the rest refused until the window has passed', async () => {
    const orderId = await finishedOrder();
    const before = receiver.received.length;
    const statuses: number[] = [];
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await resend(orderId);
      statuses.push(res.status);
      if (res.status !== 303) waits.push(await expectRefused(res));
    }
    const allowed = DEFAULT_RESEND_LIMIT.count;
    expect(statuses).toEqual([...Array<number>(allowed).fill(303), ...Array<number>(10 - allowed).fill(429)]);
    expect(receiver.received.length - before).toBe(allowed);
    // The wait only shrinks as time passes.
    waits.slice(1).forEach((wait, i) => expect(wait).toBeLessThanOrEqual(waits[i]!));

    // Refused resends leave no attempt behind.
    const page = parse(await (await request('GET', `/account/orders/${orderId}`, { cookie })).text());
    expect(page.querySelectorAll('table#callback-attempts tr[data-attempt]')).toHaveLength(1 + allowed);

    // Once the window has passed (the recorded resends moved back by it), as many again are taken, and no more.
    await service.database.db.execute(
      sql`UPDATE callback_resends SET sent_at = sent_at - ${DEFAULT_RESEND_LIMIT.windowMs} * interval '1 millisecond' WHERE order_id = ${orderId}`,
    );
    for (let i = 0; i < allowed; i++) expect((await resend(orderId)).status).toBe(303);
    await expectRefused(await resend(orderId));
    const attempts = await listed(orderId);
    expect(attempts).toHaveLength(1 + 2 * allowed);
    expectNumberedInOrder(attempts);
  });

  it("the workflow's own retries and resends at the same time share one sequence of numbers", async () => {
    const { orderId } = await placeOrder(service, { token: account.token, fields: englishAudio(media, 30) });
    // The first answers fail, so the workflow keeps retrying (5-20 ms apart here) while the resends go out.
    receiver.script = Array.from({ length: 6 }, () => ({ status: 500, body: 'not yet' }));
    try {
      expect((await service.complete(orderId, 'a.txt', 'Speaker 1: Hello.')).status).toBe(200);
      await waitFor(async () => (await listed(orderId)).length > 0, 'the first attempt');
      const answers = await Promise.all(Array.from({ length: 4 }, () => resend(orderId)));
      expect(answers.filter((r) => r.status === 303)).toHaveLength(DEFAULT_RESEND_LIMIT.count);
      // The workflow ends once its callback is delivered (no quality check here).
      await service.temporal.workflow.getHandle(`order-${orderId}`).result();
      const attempts = await listed(orderId);
      expect(attempts.filter((a) => a.outcome === 'http_error')).toHaveLength(6);
      expect(attempts.length).toBe(6 + attempts.filter((a) => a.outcome === 'ok').length);
      expectNumberedInOrder(attempts);
    } finally {
      receiver.script = [];
    }
  });

  it('twenty attempts recorded at once are numbered 1 to 20 in the order they were recorded', async () => {
    const { db } = service.database;
    const orderId = await directOrder(db, account.accountId);
    const numbers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        recordCallbackAttempt(db, {
          orderId,
          event: i % 2 ? 'finished' : 'quality_fix',
          url: receiver.url,
          statusCode: 200,
          durationMs: 1,
          outcome: 'ok',
          detail: null,
          webhookId: null,
        }),
      ),
    );
    expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await callbackAttemptsOf(db, orderId)).map((a) => a.attempt)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('the migration renumbers the attempts of an order whose numbers repeat, keeps the others, and then holds numbers unique', async () => {
    const database = await freshDatabase(engine);
    try {
      const { db } = database;
      // As the data stood before migration 0021: no unique numbering, repeats written by racing resends.
      await db.execute(sql`DROP INDEX callback_attempts_order_attempt`);
      await db.execute(sql`DROP TABLE callback_resends`);
      await db.execute(sql`DELETE FROM schema_migrations WHERE name = '0021_callback_attempt_numbers.sql'`);
      const owner = await createAccount(db, randomBytes(32), { name: 'migration', balanceCents: 1000 });
      const [repeated, kept] = [await directOrder(db, owner.accountId), await directOrder(db, owner.accountId)];
      const attempt = (orderId: number, event: string, n: number) =>
        db.execute(sql`INSERT INTO callback_attempts (order_id, event, attempt, url, duration_ms, outcome)
          VALUES (${orderId}, ${event}, ${n}, 'http://receiver.example/', 5, 'ok')`);
      for (const n of [1, 2, 3, 4, 4, 4, 4]) await attempt(repeated, 'finished', n);
      await attempt(repeated, 'quality_fix', 1);
      for (const n of [2, 5]) await attempt(kept, 'finished', n);

      expect(await migrate(db)).toEqual(['0021_callback_attempt_numbers.sql']);
      const numbers = async (orderId: number) =>
        rowsOf<{ attempt: number }>(await db.execute(sql`SELECT attempt FROM callback_attempts WHERE order_id = ${orderId} ORDER BY id`)).map((r) =>
          Number(r.attempt),
        );
      expect(await numbers(repeated)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await numbers(kept)).toEqual([2, 5]);
      await expect(attempt(kept, 'finished', 5)).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});
