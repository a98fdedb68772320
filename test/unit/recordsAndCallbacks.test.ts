import { describe, expect, it } from 'vitest';
import { orderRecord } from '../../src/domain/records.js';
import { callbackFields } from '../../src/domain/callbacks.js';
import { decryptToken, encryptToken, newApiToken, tokenHash } from '../../src/domain/tokens.js';
import { randomBytes } from 'node:crypto';

const order = {
  id: 7, product: 'transcription', status: 'paid', priceCents: 1234, seconds: 300, words: 0,
  params: { url: 'http://m/a.wav', language: 'french', comment: 'hi', text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '3_days', number_of_speakers: '1_or_2', strict: false },
  paidAt: new Date('2026-05-01T10:00:00.123Z'), deliveryEstimate: new Date('2026-05-04T10:00:00Z'), finishedAt: null,
};
const url = (kind: string) => `http://svc/api/v4/orders/7/files/${kind}?api_token=T`;

describe('order record', () => {
  it('has the spec fields of a transcription order, URL null until finished', () => {
    expect(orderRecord(order, url)).toEqual({
      id: 7, type: 'transcriptions', status: 'paid', price: 12.34, paid_at: '2026-05-01 10:00:00', delivery_estimate: '2026-05-04 10:00:00',
      finished_at: null, comment: 'hi', seconds: 300, words: 0, language: 'french', text_format: 'clean_verbatim', timestamping: 'not_required',
      number_of_speakers: '1_or_2', turnaround_time: 'days_3', transcription_url: null,
    });
  });

  it('gives the result URL once finished', () => {
    const finished = orderRecord({ ...order, status: 'finished', finishedAt: new Date('2026-05-02T00:00:00Z') }, url);
    expect(finished).toMatchObject({ finished_at: '2026-05-02 00:00:00', transcription_url: url('transcription') });
  });
});

describe('callback fields', () => {
  const callbackOrder = { id: 7, product: 'transcription' as const, params: { language: 'french' } };
  it('finished and quality fixes share the shape the spec gives', () => {
    const finished = callbackFields(callbackOrder, 'finished', url);
    expect(finished).toEqual({ mode: 'live', order_id: '7', transcription_url: url('transcription'), language: 'french' });
    expect(callbackFields(callbackOrder, 'quality_fix', url)).toEqual(finished);
  });
  it('canceled and refunded carry the status', () => {
    expect(callbackFields(callbackOrder, 'canceled', url)).toEqual({ mode: 'live', status: 'canceled', order_id: '7' });
    expect(callbackFields(callbackOrder, 'refunded', url)).toEqual({ mode: 'live', status: 'refunded', order_id: '7' });
  });
});

describe('tokens', () => {
  const key = randomBytes(32);
  it('hashes stably under one key, differently under another', () => {
    const token = newApiToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(tokenHash(key, token)).toBe(tokenHash(key, token));
    expect(tokenHash(randomBytes(32), token)).not.toBe(tokenHash(key, token));
  });
  it('encrypts so that only the key opens it, and detects tampering', () => {
    const token = newApiToken();
    const sealed = encryptToken(key, token);
    expect(sealed).not.toContain(token);
    expect(decryptToken(key, sealed)).toBe(token);
    expect(() => decryptToken(randomBytes(32), sealed)).toThrow();
    const [iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptToken(key, [iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });
});
