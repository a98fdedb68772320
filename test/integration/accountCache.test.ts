// Accounts found by token are remembered for a moment (src/db/accountCache.ts): what this process
// writes shows at once, what another process writes shows within a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { rotateApiToken } from '../../src/db/accounts.js';

describe('authentication with remembered accounts', () => {
  let service: TestService;
  let media: MediaServer;
  beforeAll(async () => {
    [service, media] = await Promise.all([startService(), startMediaServer()]);
  });
  afterAll(() => Promise.all([service?.close(), media?.close()]));

  const quote = (token: string, expectStatus?: number) => placeOrder(service, { token, mode: 'test', fields: englishAudio(media), expectStatus });

  it('shows a top-up, a charge and a rotated token at once', async () => {
    const { accountId, token } = await service.createAccount(10);
    expect((await quote(token)).body.in_wallet).toBe(10);
    expect((await service.ops('POST', `/ops/accounts/${accountId}/topup`, { amount: 5 })).status).toBe(200);
    expect((await quote(token)).body.in_wallet).toBe(15);
    const live = await placeOrder(service, { token, fields: englishAudio(media) });
    expect((await quote(token)).body.in_wallet).toBe(live.body.in_wallet);

    // As the account area rotates it: through the same database handle as the API's.
    const { token: rotated } = await rotateApiToken(service.database.db, service.secretKey, accountId);
    await quote(token, 400);
    await quote(rotated);
  });

  it('sees a change made by another process within a second', async () => {
    const { accountId, token } = await service.createAccount(10);
    expect((await quote(token)).body.in_wallet).toBe(10);
    // Another process's write: nothing in this one forgets the account.
    await service.database.db.execute(sql`UPDATE accounts SET balance_cents = 2000 WHERE id = ${accountId}`);
    const started = Date.now();
    let seen = 10;
    while (seen !== 20 && Date.now() - started < 3000) seen = (await quote(token)).body.in_wallet;
    expect(seen).toBe(20);
    expect(Date.now() - started).toBeLessThan(1500);
    // Put the ledger back in step with the balance for the audit at close.
    await service.database.db.execute(sql`UPDATE accounts SET balance_cents = 1000 WHERE id = ${accountId}`);
  });

  it('never refuses a live order for a balance a second old: a refusal reads the wallet afresh', async () => {
    const { accountId, token } = await service.createAccount(1);
    expect((await quote(token)).body.in_wallet).toBe(1);
    // Another process tops the wallet up (with its ledger entry); this process still remembers $1.
    await service.database.db.execute(sql`UPDATE accounts SET balance_cents = 2000 WHERE id = ${accountId}`);
    await service.database.db.execute(
      sql`INSERT INTO ledger_entries (account_id, kind, amount_cents, balance_after_cents) VALUES (${accountId}, 'topup', 1900, 2000)`,
    );
    expect((await quote(token)).body.in_wallet).toBe(1);
    const live = await placeOrder(service, { token, fields: englishAudio(media) });
    expect(live.body.in_wallet).toBe(18.75);
  });

  it('names the balance it read afresh when it refuses', async () => {
    const { accountId, token } = await service.createAccount(1);
    expect((await quote(token)).body.in_wallet).toBe(1);
    // Another process adds 10 cents: still short of the $1.25 order, and this process remembers $1.00.
    await service.database.db.execute(sql`UPDATE accounts SET balance_cents = 110 WHERE id = ${accountId}`);
    await service.database.db.execute(
      sql`INSERT INTO ledger_entries (account_id, kind, amount_cents, balance_after_cents) VALUES (${accountId}, 'topup', 10, 110)`,
    );
    const live = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: media.audio(60), language: 'english' });
    expect(live.status).toBe(400);
    expect(live.body.error).toBe('insufficient funds: the order costs $1.25 and the wallet holds $1.10');
  });
});
