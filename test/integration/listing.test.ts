// Listing an account with many orders (bench/millionOrders.mjs seeds a million with the same SQL):
// walking next_page_url from the first page to the last returns every order exactly once, newest
// first, and retrieval by id finds any of them.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { sql } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { fixedPlanOf, type OrderToPlace } from '../../src/contracts/orders.js';
import { productOf } from '../../src/products/registry.js';
import { orderPlan } from '../../src/products/shared.js';

const SEEDED = 2_345;
const seedSql = readFileSync('bench/seed-orders.sql', 'utf8');
/** The plan the registry gives the seeded orders' parameters (those of bench/seed-orders.sql). */
const seededPlan = fixedPlanOf(
  orderPlan(productOf('transcription'), {
    language: 'english',
    text_format: 'clean_verbatim',
    timestamping: 'not_required',
    turnaround_time: '5_days',
    number_of_speakers: '1_or_2',
  } as never) as OrderToPlace,
);

describeOnEachDatabase('listing a seeded account', (engine) => {
  let service: TestService;
  let token: string;
  let seededIds: number[];

  beforeAll(async () => {
    service = await startService({ engine });
    const account = await service.createAccount(1);
    token = account.token;
    // Another account's orders interleave with this one's ids: a page must never show them.
    const other = await service.createAccount(1);
    for (const [id, count] of [
      [account.accountId, SEEDED - 45],
      [other.accountId, 100],
      [account.accountId, 45],
    ] as const) {
      await service.database.db.execute(
        sql.raw(
          seedSql
            .replaceAll('$1', String(id))
            .replaceAll('$2', String(count))
            .replaceAll('$3', `'${JSON.stringify(seededPlan).replaceAll("'", "''")}'`),
        ),
      );
    }
    const rows = await service.database.db.execute(sql`SELECT id FROM orders WHERE account_id = ${account.accountId} ORDER BY id DESC`);
    seededIds = (rows as unknown as { rows: Array<{ id: string | number }> }).rows.map((r) => Number(r.id));
  });
  afterAll(() => service?.close());

  it.each([20, 100])('walks every page of %i orders: each order once, newest first, the last page says so', async (perPage) => {
    expect(seededIds).toHaveLength(SEEDED);
    const seen: number[] = [];
    let path: string | null = `/api/v4/orders?api_token=${token}&mode=live&per_page=${perPage}`;
    let pages = 0;
    while (path) {
      const { status, body } = await service.get(path);
      expect(status).toBe(200);
      expect(body.orders.length).toBeLessThanOrEqual(perPage);
      seen.push(...body.orders.map((o: { id: number }) => o.id));
      pages += 1;
      // next_page_url is followed as given.
      path = body.next_page_url === null ? null : `${new URL(body.next_page_url).pathname}${new URL(body.next_page_url).search}`;
    }
    expect(pages).toBe(Math.ceil(SEEDED / perPage));
    expect(seen).toEqual(seededIds);
  });

  it('takes a query key given twice with the same value once; with different values it is a 400 naming the key', async () => {
    const first = await service.get(`/api/v4/orders?api_token=${token}&mode=live&per_page=5`);
    // A client that appends its token and mode to every path, next_page_url too (which carries them).
    const next = new URL(first.body.next_page_url);
    const again = await service.get(`${next.pathname}${next.search}&api_token=${token}&mode=live`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.orders.map((o: { id: number }) => o.id)).toEqual(seededIds.slice(5, 10));
    const conflicting = await service.get(`${next.pathname}${next.search}&mode=test`);
    expect(conflicting.status).toBe(400);
    expect(conflicting.body.error).toBe('mode: given more than once with different values');
    const byId = await service.get(`/api/v4/orders/${seededIds[0]}?api_token=${token}&mode=live&api_token=${token}`);
    expect(byId.status).toBe(200);
  });

  it('finds any seeded order by id, with its record', async () => {
    for (const id of [seededIds[0]!, seededIds[SEEDED >> 1]!, seededIds.at(-1)!]) {
      const { status, body } = await service.get(`/api/v4/orders/${id}?api_token=${token}&mode=live`);
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ id, type: 'transcriptions', language: 'english' });
    }
  });
});
