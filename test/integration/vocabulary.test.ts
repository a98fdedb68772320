// `vocabulary` (issue 44): the customer's terms, kept with the order and shown in its record, refused
// beyond its limits by name, not priced; and passed to the engine, which then spells the names as
// listed (the local engine's draft of espeak-ng speech of unusual names, with and without the terms).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { freePort, waitFor } from '../helpers/net.js';
import { speak } from '../helpers/speech.js';
import { placeOrder } from '../helpers/orders.js';
import { startLocalEngine, type LocalEngine } from '../../src/engines/localEngine.js';
import { buildEngines } from '../../src/engines/settings.js';
import { VOCABULARY_LIMITS } from '../../src/products/params.js';
import { tasksOfOrder } from '../../src/db/tasks.js';

const ENGINES_DIR = process.env.ENGINES_DIR ?? '.engines';

describe('vocabulary on an order', () => {
  let service: TestService;
  let media: MediaServer;
  let token: string;
  beforeAll(async () => {
    [service, media] = await Promise.all([startService({}), startMediaServer()]);
    token = (await service.createAccount(100)).token;
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });
  /** A creation request as a JSON body (lists stay lists). */
  const postJson = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${service.baseUrl}/api/v4/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_token: token, ...body }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it("is kept as a list from a form's text or a JSON list, shown in the record, and does not change the price", async () => {
    const fields = { url: media.audio(60), language: 'english' };
    const quote = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'test', ...fields });
    const quoted = await service.post('/api/v4/transcriptions', {
      api_token: token,
      mode: 'test',
      ...fields,
      vocabulary: 'Siobhan, Okonkwo\nZyphrex,, siobhan ',
    });
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    expect(quoted.body.order_total).toBe(quote.body.order_total);
    const { orderId } = await placeOrder(service, { token, fields: { ...fields, vocabulary: 'Siobhan, Okonkwo\nZyphrex,, siobhan ' } });
    const record = await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`);
    expect(record.body.data.vocabulary).toEqual(['Siobhan', 'Okonkwo', 'Zyphrex']);
    // What order-ops show prints.
    expect((await service.ops('GET', `/ops/orders/${orderId}`)).body.params.vocabulary).toEqual(['Siobhan', 'Okonkwo', 'Zyphrex']);
    const listed = await placeOrder(service, {
      token,
      path: 'translations',
      fields: { url: media.audio(30), translate_from: 'english', translate_to: 'french', vocabulary: ['Kaunakakai', ' Tadeusz '] },
    });
    expect((await service.get(`/api/v4/orders/${listed.orderId}?api_token=${token}&mode=live`)).body.data.vocabulary).toEqual(['Kaunakakai', 'Tadeusz']);
    // An order without terms has no such field.
    const plain = await placeOrder(service, { token, fields });
    expect((await service.get(`/api/v4/orders/${plain.orderId}?api_token=${token}&mode=live`)).body.data).not.toHaveProperty('vocabulary');
    // The OpenAPI document describes it, with its limits.
    const openapi = await service.get('/api/v4/openapi.json');
    expect(JSON.stringify(openapi.body)).toContain(`up to ${VOCABULARY_LIMITS.terms} terms of up to ${VOCABULARY_LIMITS.termLength} characters`);
  });

  it('beyond its limits is a 400 naming vocabulary', async () => {
    const refused = async (vocabulary: unknown) => {
      const res = await postJson('transcriptions', { mode: 'test', url: media.audio(60), language: 'english', vocabulary });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return JSON.stringify(res.body);
    };
    expect(await refused(Array.from({ length: VOCABULARY_LIMITS.terms + 1 }, (_, i) => `term${i}`))).toContain(
      `vocabulary: has ${VOCABULARY_LIMITS.terms + 1} terms; at most ${VOCABULARY_LIMITS.terms} are taken`,
    );
    expect(await refused('x'.repeat(VOCABULARY_LIMITS.termLength + 1))).toContain(
      `vocabulary: has a term longer than ${VOCABULARY_LIMITS.termLength} characters`,
    );
    expect(await refused([1, 2])).toContain('vocabulary');
    expect(await refused({ terms: 'a' })).toContain('vocabulary: must be a list of terms');
    expect(await refused(['ok', 'bell\u0007'])).toContain('vocabulary: has a term with a control character');
  });
});

describeNeeding('localEngine', 'vocabulary steering the local speech engine', () => {
  // Six names no English speller guesses, spoken by espeak-ng as English.
  const NAMES = ['Siobhan', 'Okonkwo', 'Tadeusz', 'Wrzesniewski', 'Kaunakakai', 'Zyphrex'];
  const SAID = `Yesterday ${NAMES[0]} ${NAMES[1]} met ${NAMES[2]} ${NAMES[3]} at the ${NAMES[4]} harbour to plan the ${NAMES[5]} launch.`;
  let engine: LocalEngine;
  let service: TestService;
  let docs: DocumentServer;
  beforeAll(async () => {
    engine = await startLocalEngine({ dir: ENGINES_DIR, host: '127.0.0.1', port: await freePort(), threads: 2 });
    const local = { kind: 'local' as const, url: engine.url };
    [service, docs] = await Promise.all([
      startService({ engines: buildEngines({ speech: local, alignment: local, diarizer: local }, { model: 'unused' }) }),
      startDocumentServer(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([service?.close(), docs?.close(), engine?.stop()]);
  });

  it("the engine's draft spells the names as listed when the order names them, which it does not without", async () => {
    // An American voice: Whisper base takes the terms at its first temperature there (bench:drafts, 1b).
    const url = docs.serve('/names.wav', (await speak(SAID, 'en-us', 160)).wav, 'audio/wav');
    const { token } = await service.createAccount(10);
    // The draft a transcriber starts from: the engine's words, whatever its confidence.
    const heard = async (vocabulary?: string[]) => {
      const { orderId } = await placeOrder(service, { token, fields: { url, language: 'english', ...(vocabulary ? { vocabulary } : {}) } });
      const work = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.stage === 'work'), 'the work task', 300_000);
      return work.draft;
    };
    const without = await heard();
    const withTerms = await heard(NAMES);
    const right = (text: string) => NAMES.filter((name) => text.includes(name)).length;
    expect(right(withTerms), `without: ${without}\nwith: ${withTerms}`).toBeGreaterThanOrEqual(4);
    expect(right(withTerms), `without: ${without}\nwith: ${withTerms}`).toBeGreaterThan(right(without));
  }, 400_000);
});
