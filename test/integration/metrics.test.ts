// Prometheus metrics (docs/operations.md): /metrics names the service's series and they move when
// orders are placed, refused, finished, refunded and called back; HTTP requests are counted by
// route pattern, never by raw path; the Temporal runtime's own endpoint answers with temporal_ series.
// orders_late_total moving is tested with the late orders (lateOrders.test.ts).
// The registry is per process: assertions are on deltas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { freePort, waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { createLogger } from '../../src/log.js';

/** The sum of the samples of `name` whose labels include `labels`, in Prometheus' text format. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) total += Number(m[3]);
  }
  return total;
}

describe('Prometheus metrics', () => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let temporalMetricsPort: number;

  beforeAll(async () => {
    // As main.ts does for a worker, before any worker exists (the test service then keeps this runtime).
    temporalMetricsPort = await freePort();
    installTemporalRuntime({ logger: createLogger({ level: 'error' }), metricsPort: temporalMetricsPort, metricsHost: '127.0.0.1' });
    [service, media, receiver] = await Promise.all([startService(), startMediaServer(), startCallbackReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  const scrape = async () => {
    const res = await fetch(`${service.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };

  it('names every series of the service', async () => {
    const text = await scrape();
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds',
      'orders_placed_total',
      'orders_finished_total',
      'orders_refunded_total',
      'orders_canceled_total',
      'orders_late_total',
      'callback_attempts_total',
      'wallet_charge_failures_total',
      'pdf_characters_missing_total',
      'process_cpu_seconds_total',
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
  });

  it('counts an order placed, finished and called back, by product and outcome', async () => {
    const before = await scrape();
    const { token } = await service.createAccount(50);
    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media, 120), callbackUrl: receiver.url });
    const delta = (text: string, name: string, labels: Record<string, string> = {}) => sample(text, name, labels) - sample(before, name, labels);

    const afterPlacing = await scrape();
    expect(delta(afterPlacing, 'orders_placed_total', { product: 'transcription' })).toBe(1);
    expect(delta(afterPlacing, 'orders_placed_total', { product: 'translation' })).toBe(0);
    expect(delta(afterPlacing, 'http_requests_total', { method: 'POST', route: '/api/v4/transcriptions', status: '200' })).toBe(1);
    expect(delta(afterPlacing, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v4/transcriptions', status: '200' })).toBe(1);

    expect((await service.complete(orderId, 'transcript.txt', 'Hello there.')).status).toBe(200);
    await waitFor(() => receiver.received.some((c) => c.fields.order_id === String(orderId)), 'the callback');
    const settled = await waitFor(async () => {
      const text = await scrape();
      return delta(text, 'callback_attempts_total', { outcome: 'ok' }) >= 1 && text;
    }, 'the callback attempt counted');
    expect(delta(settled, 'callback_attempts_total', { outcome: 'ok' })).toBe(1);
    expect(delta(settled, 'orders_finished_total', { product: 'transcription' })).toBe(1);
    expect(delta(settled, 'http_requests_total', { method: 'POST', route: '/ops/orders/:id/complete', status: '200' })).toBe(1);

    // Route patterns, never raw paths: no order id and no token in any label.
    expect((await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`)).status).toBe(200);
    expect((await service.get('/no/such/endpoint')).status).toBe(404);
    const read = await scrape();
    expect(delta(read, 'http_requests_total', { method: 'GET', route: '/api/v4/orders/:id', status: '200' })).toBe(1);
    expect(delta(read, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(read).not.toContain(`/${orderId}`);
    expect(read).not.toContain(token);
  });

  it('counts refunds by product and a wallet too short as a charge failure', async () => {
    const before = await scrape();
    const delta = (text: string, name: string, labels: Record<string, string> = {}) => sample(text, name, labels) - sample(before, name, labels);
    const { token } = await service.createAccount(20);
    const placed = await placeOrder(service, { token, fields: englishAudio(media) });
    expect((await service.ops('POST', `/ops/orders/${placed.orderId}/refund`, { reason: 'test' })).status).toBe(200);
    const poor = await service.createAccount(1);
    const refused = await placeOrder(service, { token: poor.token, fields: englishAudio(media, 300), expectStatus: 400 });
    expect(refused.body.error).toMatch(/^insufficient funds/);

    const text = await waitFor(async () => {
      const now = await scrape();
      return delta(now, 'orders_refunded_total', { product: 'transcription' }) >= 1 && now;
    }, 'the refund counted');
    expect(delta(text, 'orders_refunded_total', { product: 'transcription' })).toBe(1);
    expect(delta(text, 'wallet_charge_failures_total', { reason: 'insufficient_funds' })).toBe(1);
    expect(delta(text, 'orders_placed_total', { product: 'transcription' })).toBe(1);
  });

  it('counts and logs the characters of a PDF result no font covers (drawn as U+FFFD), once per rendering', async () => {
    const before = await scrape();
    const { token } = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media) });
    // A private-use character: no font has it.
    expect((await service.complete(orderId, 'transcript.txt', 'A sign \u{F0041} no font has.')).status).toBe(200);
    const pdf = await waitFor(async () => {
      const res = await service.get(`/api/v4/orders/${orderId}/files/transcription?api_token=${token}&mode=live&format=pdf`);
      return res.status === 200 && res;
    }, 'the PDF result');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Served again from the render cache: not counted twice.
    expect((await service.get(`/api/v4/orders/${orderId}/files/transcription?api_token=${token}&mode=live&format=pdf`)).status).toBe(200);
    expect(sample(await scrape(), 'pdf_characters_missing_total') - sample(before, 'pdf_characters_missing_total')).toBe(1);
    const line = service.logged.find((l) => l.message.startsWith('characters no font covers'));
    expect(line?.meta).toMatchObject({ orderId, format: 'pdf', count: 1, characters: ['U+F0041'] });
  });

  it('exports the Temporal SDK worker metrics on the runtime port', async () => {
    const text = await waitFor(async () => {
      const res = await fetch(`http://127.0.0.1:${temporalMetricsPort}/metrics`).catch(() => undefined);
      const body = res?.ok ? await res.text() : '';
      return /^temporal_\w+/m.test(body) && body;
    }, 'temporal_ series on the runtime port');
    expect(text).toMatch(/^temporal_(worker|request|workflow|activity)\w*/m);
  });
});
