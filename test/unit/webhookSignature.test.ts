import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook, webhookHeaders, webhookSecretKey } from '../../src/domain/webhookSignature.js';

// The signing example of the Standard Webhooks reference library (libraries/javascript, "sign function works").
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('Standard Webhooks signatures', () => {
  it('matches the known vector of the specification library', () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, Buffer.from(VECTOR.body))).toBe(VECTOR.signature);
  });

  it('makes secrets of 32 random bytes behind whsec_', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretKey(secret)).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
    expect(() => webhookSecretKey('whsec_')).toThrow();
  });

  it('signs the exact bytes: the reference library verifies, a changed byte fails', () => {
    const secret = newWebhookSecret();
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="order_id"\r\n\r\n7\r\n--b--\r\n');
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], 'msg_7_finished_abc', now, body);
    expect(headers['webhook-timestamp']).toBe(String(now));
    expect(() => new Webhook(secret).verify(body, { ...headers }, { jsonParse: false })).not.toThrow();
    const tampered = Buffer.from(body);
    tampered[tampered.indexOf('7')] = '8'.charCodeAt(0);
    expect(() => new Webhook(secret).verify(tampered, { ...headers }, { jsonParse: false })).toThrow(/No matching signature/);
  });

  it('signs with every secret of a rotation, the current one first', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = Buffer.from('x');
    const headers = webhookHeaders([current, previous], 'msg_1', 1700000000, body);
    const parts = headers['webhook-signature'].split(' ');
    expect(parts).toEqual([signWebhook(current, 'msg_1', 1700000000, body), signWebhook(previous, 'msg_1', 1700000000, body)]);
    expect(() => webhookHeaders([], 'msg_1', 1, body)).toThrow();
  });
});
