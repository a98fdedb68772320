// Property-based: random sequences of create / top-up / complete / refund / cancel / worker crash /
// receiver down, run against the real service (API in process, the worker as a supervised process
// on PostgreSQL) and against a model of the wallet and the orders. After every command the API's
// answer matches the model; after every sequence the balance, every order's state and the ledger
// audit match it, and every settled order's callback arrived.
// PROPERTY_RUNS (default 12) and PROPERTY_SEED repeat it with more sequences.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import fc from 'fast-check';
import { eq, inArray } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { superviseWorker, type SupervisedWorker } from '../helpers/workerProcess.js';
import { waitFor } from '../helpers/net.js';
import { auditLedger } from '../helpers/ledgerAudit.js';
import { placeOrder } from '../helpers/orders.js';
import { accounts, orders } from '../../src/db/schema.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 12);
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined;

type Status = 'paid' | 'finished' | 'refunded' | 'canceled';
interface Model {
  balanceCents: number;
  orders: Array<{ id: number; priceCents: number; status: Status }>;
}
interface Real {
  service: TestService;
  media: MediaServer;
  receiver: CallbackReceiver;
  worker: SupervisedWorker;
  token: string;
  accountId: number;
  ran: string[];
}

/** Human transcription at the default turnaround: $1.25 a minute. */
const PRICE_PER_MINUTE_CENTS = 125;

class CreateOrder implements fc.AsyncCommand<Model, Real> {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const price = this.minutes * PRICE_PER_MINUTE_CENTS;
    const affordable = model.balanceCents >= price;
    const { orderId, body } = await placeOrder(real.service, {
      token: real.token,
      fields: { url: real.media.audio(this.minutes * 60), language: 'english' },
      callbackUrl: `${real.receiver.url}/model`,
      expectStatus: affordable ? 200 : 400,
    });
    if (affordable) {
      model.balanceCents -= price;
      model.orders.push({ id: orderId, priceCents: price, status: 'paid' });
      expect(body.in_wallet * 100).toBeCloseTo(model.balanceCents);
    } else {
      expect(body.error).toMatch(/^insufficient funds/);
    }
  }
  toString = () => `create(${this.minutes} min)`;
}

class TopUp implements fc.AsyncCommand<Model, Real> {
  constructor(readonly dollars: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const res = await real.service.ops('POST', `/ops/accounts/${real.accountId}/topup`, { amount: this.dollars });
    expect(res.status).toBe(200);
    model.balanceCents += this.dollars * 100;
    expect(res.body.in_wallet * 100).toBeCloseTo(model.balanceCents);
  }
  toString = () => `topUp($${this.dollars})`;
}

class Settle implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly action: 'complete' | 'refund' | 'cancel',
    readonly pick: number,
  ) {}
  check = (model: Readonly<Model>) => model.orders.length > 0;
  async run(model: Model, real: Real) {
    const order = model.orders[this.pick % model.orders.length]!;
    const res =
      this.action === 'complete'
        ? await real.service.complete(order.id, 'model.txt', 'Hello.')
        : await real.service.ops('POST', `/ops/orders/${order.id}/${this.action}`, {});
    if (order.status !== 'paid') {
      // Only a paid order can be settled; the answer names why not.
      expect(res.status).toBe(400);
      return;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (this.action === 'complete') order.status = 'finished';
    else {
      order.status = this.action === 'refund' ? 'refunded' : 'canceled';
      model.balanceCents += order.priceCents;
    }
  }
  toString = () => `${this.action}(#${this.pick})`;
}

class CrashWorker implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    real.ran.push('crash');
    real.worker.crash();
  }
  toString = () => 'crashWorker';
}

/** The receiver answers 503 for a while, shorter than the ten attempts' budget. */
class ReceiverDown implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    real.ran.push('outage');
    real.receiver.answer = { status: 503, body: 'down' };
    setTimeout(() => {
      real.receiver.answer = { status: 200, body: 'ok' };
    }, this.ms);
  }
  toString = () => `receiverDown(${this.ms} ms)`;
}

const createOrder = fc.integer({ min: 1, max: 4 }).map((m) => new CreateOrder(m));
const commands = [
  createOrder,
  createOrder, // twice as likely as the others: sequences need orders to settle
  fc.integer({ min: 1, max: 6 }).map((d) => new TopUp(d)),
  fc.tuple(fc.constantFrom('complete' as const, 'refund' as const, 'cancel' as const), fc.nat(20)).map(([a, i]) => new Settle(a, i)),
  fc.constant(new CrashWorker()),
  fc.integer({ min: 200, max: 1500 }).map((ms) => new ReceiverDown(ms)),
];

describeNeeding('workerProcess', 'the wallet and orders against a model, with crashes and receiver outages', () => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let worker: SupervisedWorker;
  const children: ChildProcess[] = [];
  const totals = { sequences: 0, commands: 0, orders: 0, outages: 0 };

  beforeAll(async () => {
    [service, media, receiver] = await Promise.all([
      startService({ engine: 'postgres', inProcessWorker: false, payment: { windowMs: 60_000, graceMs: 10_000 } }),
      startMediaServer(),
      startCallbackReceiver(),
    ]);
    // Ten attempts at 300–600 ms pauses outlast any outage the commands make.
    worker = superviseWorker(service, children, () => ({ CALLBACK_RETRY_MIN_MS: '300', CALLBACK_RETRY_MAX_MS: '600' }));
  });
  afterAll(async () => {
    await worker?.stop();
    for (const child of children) child.kill('SIGKILL');
    console.log(
      `order model: ${totals.sequences} sequences, ${totals.commands} commands, ${totals.orders} orders, ` +
        `${worker?.crashes ?? 0} worker crashes, ${totals.outages} receiver outages; every check held`,
    );
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  it('every sequence keeps the wallet, the orders and the callbacks as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 10 }), fc.commands(commands, { maxCommands: 16 }), async (startDollars, sequence) => {
        const { accountId, token } = await service.createAccount(startDollars);
        const model: Model = { balanceCents: startDollars * 100, orders: [] };
        const real: Real = { service, media, receiver, worker, token, accountId, ran: [] };
        await fc.asyncModelRun(() => ({ model, real }), sequence);

        // Settled: the database says what the model says, and every settled order was called back.
        receiver.answer = { status: 200, body: 'ok' };
        const ids = model.orders.map((o) => o.id);
        const calledBack = (id: number, status: Status) =>
          receiver.received.some((c) => c.fields.order_id === String(id) && (c.fields.status ?? 'finished') === status);
        await waitFor(
          async () => {
            const rows = ids.length ? await service.database.db.select().from(orders).where(inArray(orders.id, ids)) : [];
            return rows.every((row) => {
              const expected = model.orders.find((o) => o.id === row.id)!;
              return row.status === expected.status && (expected.status === 'paid' || calledBack(row.id, expected.status));
            });
          },
          'the orders settled as the model says, and called back',
          90_000,
        );
        const [account] = await service.database.db.select().from(accounts).where(eq(accounts.id, accountId));
        expect(account!.balanceCents).toBe(model.balanceCents);
        expect((await auditLedger(service.database.db)).problems).toEqual([]);

        totals.sequences++;
        totals.commands += [...sequence].length;
        totals.orders += ids.length;
        totals.outages += real.ran.filter((c) => c === 'outage').length;
      }),
      { numRuns: RUNS, endOnFailure: true, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
  }, 900_000);
});
