// Deleting an order's data from the account area (issue 53, items 4 and 5), through the started
// service, on each database: Settings' "Delete orders' data after" saved and applied to the orders
// placed from then on (the API's record shows delete_after_seconds); a finished order's "Delete",
// its confirmation page ("cannot be undone"), the deletion, and the order then shown deleted in the
// list and on its page (no downloads, player, share or resend; the bill's fields kept), its result
// URL 410 and its share link 404; no button for an order in work and a forged POST refused naming
// its status; another account's order unknown.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, type HTMLElement } from 'node-html-parser';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { callbackAttemptsOf, getOrder } from '../../src/db/orders.js';
import { usd } from '../../src/web/format.js';
import { CLOSED_WORKFLOW_NOTE } from '../../src/orders/deleteOrder.js';

const TRANSCRIPT = [{ speaker: 'Alice Moreau', start: 1, end: 4.5, text: 'The keeper climbed the stairs.' }];

/** A page's text with its white space collapsed. */
const textOf = (el: HTMLElement | null): string => (el?.text ?? '').replace(/\s+/g, ' ').trim();

/** The text of the definition of `term` in the order page's parameters. */
const definition = (doc: HTMLElement, term: string): string =>
  textOf(doc.querySelectorAll('#parameters dt').find((dt) => textOf(dt) === term)?.nextElementSibling ?? null);

let media: MediaServer;
let receiver: CallbackReceiver;
beforeAll(async () => {
  [media, receiver] = await Promise.all([startMediaServer(), startCallbackReceiver()]);
  // The first callback fails and the next waits a minute: the order's workflow stays open (the note).
  receiver.answer = { status: 500, body: 'not yet' };
});
afterAll(async () => {
  await Promise.all([media?.close(), receiver?.close()]);
});

describeOnEachDatabase("an order's data deleted from the account area", (databaseEngine) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ engine: databaseEngine, callbackRetryMs: [60_000, 60_000], rateLimits: { signInPerMinute: 10_000 } });
  });
  afterAll(async () => {
    await service?.close();
  });

  const record = async (token: string, id: number) => (await service.get(`/api/v4/orders/${id}?api_token=${token}&mode=live`)).body.data;
  const page = async (session: WorkerSession, path: string) => {
    const answer = await session.request('GET', path);
    return { ...answer, doc: parse(answer.text) };
  };
  const post = async (session: WorkerSession, path: string, form: Record<string, string> = {}) => {
    const answer = await session.request('POST', path, form);
    return { ...answer, doc: parse(answer.text) };
  };

  it("Settings' rule is saved, refused when not a whole number of days, and applies to orders placed from then on", async () => {
    const { token } = await service.createAccount(20);
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const settings = await page(customer, '/account/settings');
    const field = settings.doc.querySelector('form#deletion-settings input#delete_after_days')!;
    expect(textOf(settings.doc.querySelector('label[for="delete_after_days"]'))).toBe("Delete orders' data after");
    expect(field.getAttribute('value')).toBe('');
    expect(textOf(settings.doc.querySelector('#delete_after_days-hint'))).toContain('Applies to orders placed from now on');

    for (const typed of ['0', '3661', '1.5', 'ten', '-3']) {
      const refused = await post(customer, '/account/settings/deletion', { delete_after_days: typed });
      expect(refused.status, typed).toBe(400);
      expect(textOf(refused.doc.querySelector('[role="alert"]')), typed).toBe(
        "delete_after_days: give a whole number of days from 1 to 3660, or nothing to keep orders' data until you delete it.",
      );
    }
    expect(
      (await post(customer, '/account/settings/deletion', { delete_after_days: '3661' })).doc.querySelector('#delete_after_days')!.getAttribute('value'),
    ).toBe('3661');

    // Placed before the rule (and the account remembered by the API for a moment: the write forgets it).
    const { orderId: before } = await placeOrder(service, { token, fields: englishAudio(media, 30) });
    const saved = await post(customer, '/account/settings/deletion', { delete_after_days: '30' });
    expect([saved.status, saved.location]).toEqual([303, '/account/settings']);
    const { orderId: after } = await placeOrder(service, { token, fields: englishAudio(media, 30) });
    const shown = await page(customer, '/account/settings');
    expect(textOf(shown.doc.querySelector('[role="status"]'))).toBe(
      'Settings saved: orders placed from now on have their data deleted 30 days after they are finished, refunded or canceled.',
    );
    expect(shown.doc.querySelector('#delete_after_days')!.getAttribute('value')).toBe('30');
    expect((await record(token, before)).delete_after_seconds).toBeUndefined();
    expect(await record(token, after)).toMatchObject({ delete_after_seconds: 30 * 86_400, delete_at: null });
    const orderPage = await page(customer, `/account/orders/${after}`);
    expect(definition(orderPage.doc, 'Data to be deleted')).toBe('30 days after it is finished, refunded or canceled');

    // Emptied: never, for the orders placed from then on; the one placed under the rule keeps it.
    expect((await post(customer, '/account/settings/deletion', { delete_after_days: '' })).status).toBe(303);
    expect(textOf((await page(customer, '/account/settings')).doc.querySelector('[role="status"]'))).toBe(
      'Settings saved: orders placed from now on keep their data until you delete it.',
    );
    const { orderId: later } = await placeOrder(service, { token, fields: englishAudio(media, 30) });
    expect((await record(token, later)).delete_after_seconds).toBeUndefined();
    expect((await record(token, after)).delete_after_seconds).toBe(30 * 86_400);
  });

  it('Delete asks to confirm ("cannot be undone"), then deletes: the order shown deleted, its result URL 410, its share link 404', async () => {
    const { token } = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media, 30), callbackUrl: receiver.url });
    expect((await service.complete(orderId, 'done.json', JSON.stringify(TRANSCRIPT))).status).toBe(200);
    await waitFor(async () => (await callbackAttemptsOf(service.database.db, orderId)).length > 0, 'the first callback attempt');
    const finished = await record(token, orderId);
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    await customer.request('GET', `/account/orders/${orderId}`); // the session's CSRF token
    expect((await post(customer, `/account/orders/${orderId}/share`, { expires_in_days: '' })).status).toBe(303);
    const before = await page(customer, `/account/orders/${orderId}`);
    const link = service.baseUrl + /\/shared\/[\w-]{32}/.exec(before.text)![0];
    // All that the deletion takes away is there before it.
    for (const selector of ['a[data-kind="transcription"]', '#transcript-player', '#sharing', 'form#resend', 'form#delete-order']) {
      expect(before.doc.querySelector(selector), selector).not.toBeNull();
    }
    expect(before.doc.querySelector('form#delete-order')!.getAttribute('method')).toBe('post');
    expect(before.doc.querySelector('form#delete-order input[name="csrf"]')).not.toBeNull();
    expect(textOf(before.doc.querySelector('form#delete-order button'))).toBe('Delete');
    expect((await fetch(`${finished.transcription_url}&format=text`)).status).toBe(200);
    expect((await fetch(link)).status).toBe(200);

    // The button asks first: what goes, "cannot be undone", Delete or Cancel; nothing is deleted yet.
    const asked = await post(customer, `/account/orders/${orderId}/delete`);
    expect(asked.status).toBe(200);
    const question = textOf(asked.doc.querySelector('#delete-confirmation'));
    expect(question).toContain("The order's media, transcript, result files and share link will be deleted");
    expect(question).toContain('This cannot be undone.');
    expect(asked.doc.querySelector('form#confirm-delete input[name="confirm"]')!.getAttribute('value')).toBe('yes');
    expect(textOf(asked.doc.querySelector('form#confirm-delete button'))).toBe('Delete');
    expect(asked.doc.querySelector('a#cancel-delete')!.getAttribute('href')).toBe(`/account/orders/${orderId}`);
    expect((await getOrder(service.database.db, orderId))!.deletedAt).toBeNull();

    const deleted = await post(customer, `/account/orders/${orderId}/delete`, { confirm: 'yes' });
    expect([deleted.status, deleted.location]).toEqual([303, `/account/orders/${orderId}`]);
    const after = await page(customer, `/account/orders/${orderId}`);
    expect(after.status).toBe(200);
    // Its callback was still being retried: the workflow was closed, and the page says so.
    const notice = textOf(after.doc.querySelector('[role="status"]'));
    expect(notice).toMatch(/^This order's data was deleted \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: its media, transcript, result files and share link are gone\./);
    expect(notice).toContain(CLOSED_WORKFLOW_NOTE);
    expect(textOf(after.doc.querySelector('[data-field="status"]'))).toMatch(/^finished · Deleted \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(textOf(after.doc.querySelector('#result-files [data-field="files"]'))).toBe('Deleted');
    for (const selector of ['a[data-kind]', 'audio', '#transcript-view', '#sharing', 'form#share', 'form#resend', 'form#delete-order']) {
      expect(after.doc.querySelector(selector), selector).toBeNull();
    }
    // The bill's fields stay: price, paid and finished.
    expect(definition(after.doc, 'Price')).toBe(usd((await getOrder(service.database.db, orderId))!.priceCents));
    expect(definition(after.doc, 'Paid')).toBe(`${finished.paid_at} UTC`);
    expect(definition(after.doc, 'Finished')).toBe(`${finished.finished_at} UTC`);
    expect(definition(after.doc, 'Data deleted')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(after.text).not.toContain(media.audio(30));

    // The list: the same status word and no downloads; the live status feed says the same.
    const list = await page(customer, '/account/orders');
    const row = list.doc.querySelector(`tr[data-order-id="${orderId}"]`)!;
    expect(textOf(row.querySelector('[data-field="status"]'))).toMatch(/^finished · Deleted \d{4}-/);
    expect(textOf(row.querySelector('[data-field="files"]'))).toBe('Deleted');
    expect(row.querySelector('a[data-kind]')).toBeNull();
    const feed = JSON.parse((await customer.request('GET', `/account/orders/status.json?ids=${orderId}`)).text)[orderId];
    expect(feed).toMatchObject({ status: 'finished', settled: true });
    expect(feed.status_html).toContain('Deleted');
    expect(feed.files_html).not.toContain('<a');

    // Gone everywhere it was served.
    expect(await record(token, orderId)).toMatchObject({ deleted_at: expect.any(String), transcription_url: null });
    expect((await fetch(`${finished.transcription_url}&format=text`)).status).toBe(410);
    expect((await customer.request('GET', `/account/orders/${orderId}/files/transcription?format=text`)).status).toBe(410);
    expect((await fetch(link)).status).toBe(404);
    // A forged resend is refused: no callback for a deleted order.
    const resent = await post(customer, `/account/orders/${orderId}/resend`);
    expect(resent.status).toBe(409);
    expect(textOf(resent.doc.querySelector('[role="alert"]'))).toContain('its data was deleted');
    // Pressing Delete again (an old tab) asks nothing: the order page.
    expect(await customer.request('POST', `/account/orders/${orderId}/delete`, {})).toMatchObject({ status: 303, location: `/account/orders/${orderId}` });
  });

  it('an order in work has no Delete and a forged POST is refused naming its status; another account reads no order', async () => {
    const owner = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token: owner.token, fields: englishAudio(media, 30) });
    const customer = await WorkerSession.signInToAccount(service.baseUrl, owner.token);
    const inWork = await page(customer, `/account/orders/${orderId}`);
    expect(inWork.doc.querySelector('form#delete-order')).toBeNull();
    expect(inWork.doc.querySelector('#deletion')).toBeNull();
    for (const form of [{ confirm: 'yes' }, {}] as Array<Record<string, string>>) {
      const forged = await post(customer, `/account/orders/${orderId}/delete`, form);
      expect(forged.status).toBe(409);
      expect(textOf(forged.doc.querySelector('[role="alert"]'))).toBe(
        "The order's data was not deleted: the order is paid; its data can be deleted once it is finished, refunded or canceled.",
      );
    }
    expect((await getOrder(service.database.db, orderId))!.deletedAt).toBeNull();

    // Finished, it has the button; another account neither sees nor deletes it.
    expect((await service.complete(orderId, 'done.txt', 'Welcome.')).status).toBe(200);
    expect((await page(customer, `/account/orders/${orderId}`)).doc.querySelector('form#delete-order')).not.toBeNull();
    const stranger = await WorkerSession.signInToAccount(service.baseUrl, (await service.createAccount(1)).token);
    await stranger.request('GET', '/account/orders');
    const refused = await post(stranger, `/account/orders/${orderId}/delete`, { confirm: 'yes' });
    expect(refused.status).toBe(404);
    expect(textOf(refused.doc.querySelector('[role="alert"]'))).toBe('There is no such order in this account.');
    expect((await getOrder(service.database.db, orderId))!.deletedAt).toBeNull();
    expect((await record(owner.token, orderId)).transcription_url).toEqual(expect.any(String));
  });
});
