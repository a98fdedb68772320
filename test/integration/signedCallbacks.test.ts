// Signed callbacks (Standard Webhooks, checked by the independent `standardwebhooks` library) and
// delivery hardening: stable ids across retries, secret rotation, 410, Retry-After, no redirects,
// a capped answer, and the runnable example receiver of docs/examples.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { sql } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, withReceiver, type ReceivedCallback } from '../helpers/callbackReceiver.js';
import { freePort, waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { callbackAttemptsOf } from '../../src/db/orders.js';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { retryAfterMs } from '../../src/activities/callbacks.js';

/** The three Standard Webhooks headers as received, for `Webhook.verify`. */
const signed = (call: ReceivedCallback, signature = call.headers['webhook-signature'] as string) => ({
  'webhook-id': call.headers['webhook-id'] as string,
  'webhook-timestamp': call.headers['webhook-timestamp'] as string,
  'webhook-signature': signature,
});
const verify = (secret: string, call: ReceivedCallback, body = call.rawBody, signature?: string) =>
  new Webhook(secret).verify(body, signed(call, signature), { jsonParse: false });

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(retryAfterMs('1', now)).toBe(1000);
    expect(retryAfterMs(' 120 ', now)).toBe(120_000);
    expect(retryAfterMs('Fri, 01 May 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Fri, 01 May 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describeOnEachDatabase('signed callbacks', (engine) => {
  let service: TestService;
  let media: MediaServer;

  beforeAll(async () => {
    // Every finished order is picked for a quality check (the quality_fix re-send); the longest
    // pause (1.5 s) lets a Retry-After of 1 s be honoured.
    [service, media] = await Promise.all([startService({ engine, qualityCheckProbability: 1, callbackRetryMs: [10, 1500] }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  /** An account made the way order-ops makes one: its answer carries the signing secret. */
  const newAccount = async (extra: Record<string, unknown> = {}) => {
    const created = await service.ops('POST', '/ops/accounts', { name: 'signed', balance: 20, ...extra });
    expect(created.status).toBe(200);
    expect(created.body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    return created.body as { account_id: number; api_token: string; webhook_secret: string };
  };
  const finishedOrder = async (token: string, callbackUrl: string) => {
    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media), callbackUrl });
    expect((await service.complete(orderId, 'a.txt', 'Speaker 1: Hello.')).status).toBe(200);
    return orderId;
  };
  const attemptsOf = (orderId: number) => callbackAttemptsOf(service.database.db, orderId);

  it('signs the exact bytes sent; the standardwebhooks library verifies them and refuses a tampered body', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      const orderId = await finishedOrder(account.api_token, receiver.url);
      const call = await waitFor(() => receiver.received[0], 'the callback');
      expect(call.fields).toMatchObject({ order_id: String(orderId), mode: 'live' });
      expect(call.contentType).toMatch(/^multipart\/form-data; boundary=/);
      expect(call.headers['webhook-id']).toMatch(new RegExp(`^msg_${orderId}_finished_[0-9a-f]{12}$`));
      expect(Math.abs(Number(call.headers['webhook-timestamp']) - call.at / 1000)).toBeLessThan(5);
      expect(call.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(() => verify(account.webhook_secret, call)).not.toThrow();

      const tampered = Buffer.from(call.rawBody.toString('latin1').replace(`\r\n\r\n${orderId}\r\n`, `\r\n\r\n${orderId + 1}\r\n`), 'latin1');
      expect(tampered.equals(call.rawBody)).toBe(false);
      expect(() => verify(account.webhook_secret, call, tampered)).toThrow(WebhookVerificationError);
      expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, call)).toThrow(WebhookVerificationError);

      const shown = await service.ops('GET', `/ops/accounts/${account.account_id}/webhook-secret`);
      expect(shown.body).toEqual({ account_id: account.account_id, webhook_secret: account.webhook_secret });
      expect(await attemptsOf(orderId)).toMatchObject([{ event: 'finished', attempt: 1, outcome: 'ok' }]);
    }));

  it('sends what the OpenAPI document describes: each transcription callback validates against TranscriptionCallback', () =>
    withReceiver(async (receiver) => {
      const doc = (await service.get('/api/v4/openapi.json')).body;
      const callback = doc.paths['/api/v4/transcriptions'].post.callbacks.orderSettled['{$request.body#/callback_url}'].post;
      const ref = callback.requestBody.content['multipart/form-data'].schema.$ref as string;
      expect(ref).toBe('#/components/schemas/TranscriptionCallback');
      const schema = doc.components.schemas.TranscriptionCallback as { anyOf: Array<{ description: string; properties: object }> };
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
      const validate = ajv.compile(schema);
      /** The variant documented for `event`, closed: the callback carries its fields and no others. */
      const variantOf = (event: string) => {
        const variant = schema.anyOf.find((v) =>
          v.description
            .replace(/^sent on: /, '')
            .split(', ')
            .includes(event),
        );
        expect(variant, `a documented variant for ${event}`).toBeDefined();
        return ajv.compile({ ...variant, additionalProperties: false });
      };
      const headerSchemas = (callback.parameters as Array<{ name: string; in: string; required: boolean; schema: object }>).map((p) => {
        expect([p.in, p.required]).toEqual(['header', true]);
        return [p.name, ajv.compile(p.schema)] as const;
      });
      const check = (event: string, call: ReceivedCallback) => {
        expect(validate(call.fields), `${event}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        const closed = variantOf(event);
        expect(closed(call.fields), `${event}: ${ajv.errorsText(closed.errors)} in ${JSON.stringify(call.fields)}`).toBe(true);
        for (const [name, valid] of headerSchemas) expect(valid(call.headers[name]), `${event}: header ${name} = ${call.headers[name]}`).toBe(true);
      };

      const account = await newAccount({ canceled_callbacks: true });
      const finished = await finishedOrder(account.api_token, `${receiver.url}/finished`);
      const order = { token: account.api_token, fields: englishAudio(media) };
      const { orderId: refunded } = await placeOrder(service, { ...order, callbackUrl: `${receiver.url}/refunded` });
      const { orderId: canceled } = await placeOrder(service, { ...order, callbackUrl: `${receiver.url}/canceled` });
      expect((await service.ops('POST', `/ops/orders/${refunded}/refund`, {})).status).toBe(200);
      expect((await service.ops('POST', `/ops/orders/${canceled}/cancel`, {})).status).toBe(200);
      const arrived = (path: string) => waitFor(() => receiver.received.find((c) => c.path === path), `the ${path} callback`);

      const done = await arrived('/finished');
      expect(done.fields).toMatchObject({ mode: 'live', order_id: String(finished), language: expect.any(String) });
      expect(done.fields.transcription_url).toMatch(new RegExp(`^${service.baseUrl}/api/v4/orders/${finished}/files/transcription\\?api_token=`));
      check('finished', done);
      check('refunded', await arrived('/refunded'));
      check('canceled', await arrived('/canceled'));
      // The quality-fix re-send of the finished order (every order here is picked for a quality check).
      const fixed = await service.ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: Hello there.'));
      expect(
        (await service.ops('POST', `/ops/orders/${finished}/qc`, { fix: [{ kind: 'transcription', key: fixed.body.key, file_name: 'fixed.txt' }] })).status,
      ).toBe(200);
      const resend = await waitFor(() => receiver.received.filter((c) => c.path === '/finished')[1], 'the quality-fix callback');
      expect(resend.headers['webhook-id']).toMatch(new RegExp(`^msg_${finished}_quality_fix_`));
      check('quality_fix', resend);
      // Not vacuous: a callback missing a documented field, or carrying an undocumented one, fails.
      const { transcription_url: _url, ...missing } = done.fields;
      expect(validate(missing)).toBe(false);
      expect(variantOf('finished')({ ...done.fields, api_token: account.api_token })).toBe(false);
    }));

  it('gives an account that predates signed callbacks a secret on first use', () =>
    withReceiver(async (receiver) => {
      const { accountId, token } = await service.createAccount(10);
      await service.database.db.execute(sql`UPDATE accounts SET webhook_secret_encrypted = NULL WHERE id = ${accountId}`);
      await finishedOrder(token, receiver.url);
      const call = await waitFor(() => receiver.received[0], 'the callback');
      const { body } = await service.ops('GET', `/ops/accounts/${accountId}/webhook-secret`);
      expect(() => verify(body.webhook_secret, call)).not.toThrow();
      // Stored sealed with the service key, never in clear.
      const stored = (await service.database.db.execute(sql`SELECT webhook_secret_encrypted AS s FROM accounts WHERE id = ${accountId}`)) as unknown as {
        rows: Array<{ s: string }>;
      };
      expect(stored.rows[0]!.s).not.toContain(body.webhook_secret.slice(6));
    }));

  it('signs with both secrets during a rotation window, and with the new one only after it', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      const rotated = await service.ops('POST', `/ops/accounts/${account.account_id}/webhook-secret/rotate`, {});
      expect(rotated.status).toBe(200);
      const { webhook_secret: fresh, previous_webhook_secret: old, previous_valid_until: until } = rotated.body;
      expect(old).toBe(account.webhook_secret);
      expect(fresh).not.toBe(old);
      expect(Date.parse(until) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
      expect((await service.ops('GET', `/ops/accounts/${account.account_id}/webhook-secret`)).body.webhook_secret).toBe(fresh);

      const first = await finishedOrder(account.api_token, receiver.url);
      const during = await waitFor(() => receiver.received.find((c) => c.fields.order_id === String(first)), 'the callback during the window');
      const [newSig, oldSig, ...more] = (during.headers['webhook-signature'] as string).split(' ');
      expect(more).toEqual([]);
      expect(() => verify(fresh, during, during.rawBody, newSig)).not.toThrow();
      expect(() => verify(old, during, during.rawBody, oldSig)).not.toThrow();
      expect(() => verify(old, during, during.rawBody, newSig)).toThrow(WebhookVerificationError);
      expect(() => verify(old, during)).not.toThrow();
      expect(() => verify(fresh, during)).not.toThrow();

      // The window ends (as 24 hours later).
      await service.database.db.execute(sql`UPDATE accounts SET webhook_secret_previous_until = now() - interval '1 second' WHERE id = ${account.account_id}`);
      const second = await finishedOrder(account.api_token, receiver.url);
      const after = await waitFor(() => receiver.received.find((c) => c.fields.order_id === String(second)), 'the callback after the window');
      expect((after.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
      expect(() => verify(fresh, after)).not.toThrow();
      expect(() => verify(old, after)).toThrow(WebhookVerificationError);
      expect((await service.ops('GET', `/ops/accounts/${account.account_id}/webhook-secret`)).body).toEqual({
        account_id: account.account_id,
        webhook_secret: fresh,
      });

      // A zero window drops the old secret at once; bad windows are refused.
      const now = await service.ops('POST', `/ops/accounts/${account.account_id}/webhook-secret/rotate`, { window_hours: 0 });
      expect(Object.keys(now.body).sort()).toEqual(['account_id', 'webhook_secret']);
      expect((await service.ops('POST', `/ops/accounts/${account.account_id}/webhook-secret/rotate`, { window_hours: -1 })).status).toBe(400);
      expect((await service.ops('POST', '/ops/accounts/999999/webhook-secret/rotate', {})).status).toBe(400);
    }));

  it('keeps one webhook-id across the retries of a callback; the quality-fix re-send has its own', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      receiver.script = [
        { status: 500, body: 'oops' },
        { status: 500, body: 'oops' },
      ];
      const orderId = await finishedOrder(account.api_token, receiver.url);
      const attempts = await waitFor(async () => {
        const rows = await attemptsOf(orderId);
        return rows.some((r) => r.outcome === 'ok') && rows;
      }, 'the delivered attempt');
      expect(attempts.map((a) => [a.attempt, a.outcome, a.statusCode])).toEqual([
        [1, 'http_error', 500],
        [2, 'http_error', 500],
        [3, 'ok', 200],
      ]);
      expect(receiver.received).toHaveLength(3);
      const ids = new Set(receiver.received.map((c) => c.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const call of receiver.received) expect(() => verify(account.webhook_secret, call)).not.toThrow();
      const [firstId] = ids as Set<string>;

      const fixed = await service.ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: Hello there.'));
      const qc = await service.ops('POST', `/ops/orders/${orderId}/qc`, { fix: [{ kind: 'transcription', key: fixed.body.key, file_name: 'fixed.txt' }] });
      expect(qc.body).toMatchObject({ status: 'finished', quality_check: 'fixed' });
      const resend = await waitFor(() => receiver.received[3], 'the quality-fix callback');
      expect(resend.headers['webhook-id']).toMatch(new RegExp(`^msg_${orderId}_quality_fix_[0-9a-f]{12}$`));
      expect(resend.headers['webhook-id']).not.toBe(firstId);
      expect(resend.headers['webhook-id']!.toString().slice(-12)).toBe(firstId!.slice(-12));
      expect(() => verify(account.webhook_secret, resend)).not.toThrow();
    }));

  it('stops after one attempt when the receiver answers 410 Gone; the order stays finished', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      receiver.answer = { status: 410, body: 'gone' };
      const orderId = await finishedOrder(account.api_token, receiver.url);
      await waitFor(async () => (await attemptsOf(orderId)).length > 0, 'the attempt');
      // The workflow has moved past the callback: it waits for its quality check, then closes.
      expect((await service.ops('POST', `/ops/orders/${orderId}/qc`, { pass: true })).status).toBe(200);
      expect(await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).result()).toEqual({ status: 'finished', qualityCheck: 'passed' });
      expect(receiver.received).toHaveLength(1);
      expect((await attemptsOf(orderId)).map((a) => [a.attempt, a.outcome, a.statusCode])).toEqual([[1, 'gone', 410]]);
      expect((await service.get(`/api/v4/orders/${orderId}?api_token=${account.api_token}&mode=live`)).body.data.status).toBe('finished');
    }));

  it('waits as long as a 429 Retry-After asks, then delivers', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      receiver.script = [{ status: 429, body: 'slow down', headers: { 'retry-after': '1' } }];
      const orderId = await finishedOrder(account.api_token, receiver.url);
      const attempts = await waitFor(async () => {
        const rows = await attemptsOf(orderId);
        return rows.some((r) => r.outcome === 'ok') && rows;
      }, 'the delivered attempt');
      expect(attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
        ['http_error', 429],
        ['ok', 200],
      ]);
      const [first, second] = receiver.received;
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    }));

  it('honours a 503 Retry-After the same way, up to the longest pause (1.5 s here), within the attempt budget', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      // Both ask for an hour (as delay-seconds, then as an HTTP date): each retry waits the longest
      // pause, more than the ~1 s this Temporal server spaces other retries, and not an hour.
      receiver.script = [
        { status: 503, body: 'busy', headers: { 'retry-after': '3600' } },
        { status: 503, body: 'busy', headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } },
      ];
      const orderId = await finishedOrder(account.api_token, receiver.url);
      const attempts = await waitFor(async () => {
        const rows = await attemptsOf(orderId);
        return rows.some((r) => r.outcome === 'ok') && rows;
      }, 'the delivered attempt');
      expect(attempts.map((a) => [a.attempt, a.outcome, a.statusCode, a.detail])).toEqual([
        [1, 'http_error', 503, 'answered 503: "busy"'],
        [2, 'http_error', 503, 'answered 503: "busy"'],
        [3, 'ok', 200, null],
      ]);
      expect(receiver.received).toHaveLength(3);
      const gaps = receiver.received.slice(1).map((call, i) => call.at - receiver.received[i]!.at);
      for (const gap of gaps) {
        expect(gap, `gaps ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(1500);
        expect(gap, `gaps ${gaps.join(', ')} ms`).toBeLessThan(10_000);
      }
      expect(new Set(receiver.received.map((c) => c.headers['webhook-id'])).size).toBe(1);
      for (const call of receiver.received) expect(() => verify(account.webhook_secret, call)).not.toThrow();
    }));

  it('does not follow a redirect: the attempt fails and the target is never called', () =>
    withReceiver(async (receiver) => {
      const target = await startCallbackReceiver();
      try {
        const account = await newAccount();
        receiver.script = [{ status: 307, body: '', headers: { location: target.url } }];
        const orderId = await finishedOrder(account.api_token, receiver.url);
        const attempts = await waitFor(async () => {
          const rows = await attemptsOf(orderId);
          return rows.some((r) => r.outcome === 'ok') && rows;
        }, 'the delivered attempt');
        expect(attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
          ['http_error', 307],
          ['ok', 200],
        ]);
        expect(attempts[0]!.detail).toContain('redirects are not followed');
        expect(receiver.received).toHaveLength(2);
        expect(target.received).toHaveLength(0);
      } finally {
        await target.close();
      }
    }));

  it('reads only the head of an oversized answer: the attempt fails promptly and cleanly', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      const total = 10 * 1024 * 1024;
      let completed: boolean | undefined;
      receiver.respond = (res, call) => {
        if (receiver.received.indexOf(call) > 0) return void res.writeHead(200).end('ok');
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(total) });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        res.once('close', () => {
          completed = res.writableFinished;
        });
        const pump = () => {
          while (sent < total) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      };
      const orderId = await finishedOrder(account.api_token, receiver.url);
      const attempts = await waitFor(async () => {
        const rows = await attemptsOf(orderId);
        return rows.some((r) => r.outcome === 'ok') && rows;
      }, 'the delivered attempt');
      expect(attempts[0]!.outcome).not.toBe('ok');
      // Well within the attempt timeout (2 s here): the reader stopped, it did not wait for the rest.
      expect(attempts[0]!.durationMs).toBeLessThan(2000);
      expect(attempts.at(-1)!.outcome).toBe('ok');
      await waitFor(() => completed !== undefined, 'the oversized answer to end');
      expect(completed).toBe(false);
    }));

  it('the example receiver of docs/examples verifies a real callback and refuses a forged one', async () => {
    const account = await newAccount();
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ['docs/examples/callback-receiver.mjs'], {
      env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: account.webhook_secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
    });
    child.stderr!.on('data', (d) => {
      err += d;
    });
    try {
      await waitFor(() => out.includes('listening') || (child.exitCode !== null && Promise.reject(new Error(err))), 'the example receiver to listen');
      const url = `http://127.0.0.1:${port}/`;
      const forged = await fetch(url, {
        method: 'POST',
        body: 'order_id=1',
        headers: {
          'webhook-id': 'msg_x',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
        },
      });
      expect([forged.status, await forged.text()]).toEqual([401, 'invalid signature']);

      const orderId = await finishedOrder(account.api_token, url);
      const line = await waitFor(() => out.split('\n').find((l) => l.includes(`"order_id":"${orderId}"`)), 'the verified callback');
      expect(JSON.parse(line)).toMatchObject({
        verified: true,
        id: expect.stringMatching(`^msg_${orderId}_finished_`),
        fields: { order_id: String(orderId), mode: 'live' },
      });
      // The activity records the attempt once the receiver's answer is in: after the receiver printed its line.
      const recorded = await waitFor(async () => {
        const attempts = await attemptsOf(orderId);
        return attempts.length > 0 ? attempts : undefined;
      }, 'the recorded attempt');
      expect(recorded.map((a) => a.outcome)).toEqual(['ok']);
      expect(err).toContain('refused: no matching signature');
    } finally {
      child.kill();
    }
  });
});
