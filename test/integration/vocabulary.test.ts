// `vocabulary` (issue 44): the customer's terms, kept with the order and shown in its record, refused
// beyond its limits by name, not priced; and passed to the engine, which then spells the names as
// listed (the local engine's draft of espeak-ng speech of unusual names, with and without the terms).
// Issue 51: in NFC, and refused with characters that draw nothing or reorder the text; the pages hold
// each term in a <bdi>, and order-ops writes such characters of older rows as escapes.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { parse } from 'node-html-parser';
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
import { WorkerSession } from '../helpers/workerSession.js';

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
    expect(await refused(['ok', 'bell\u0007'])).toContain('vocabulary: term 2 (');
    expect(await refused(['ok', 'bell\u0007'])).toContain('holds U+0007 at character 5: a control character');
  });

  // Issue 51: characters that draw nothing or reorder what follows, each sent in every encoding the API reads.
  const INVISIBLE = [
    { name: 'a right-to-left override', term: 'Zyph\u202Erex', codePoint: 'U+202E', at: 5 },
    { name: 'a zero-width space', term: 'Zyph\u200Brex', codePoint: 'U+200B', at: 5 },
    { name: 'a tag character', term: 'Zyphrex\u{E0041}', codePoint: 'U+E0041', at: 8 },
    { name: 'a byte order mark', term: '\uFEFFZyphrex', codePoint: 'U+FEFF', at: 1 },
  ];
  const ENCODINGS = {
    json: (fields: Record<string, string>) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) }),
    form: (fields: Record<string, string>) => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
    multipart: (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return { body: form };
    },
  };

  it.each(INVISIBLE)(
    'refuses a term with $name ($codePoint) with a 400 naming vocabulary, the term and the character, in test and live mode, in JSON, form and multipart, before any charge',
    async ({ term, codePoint, at }) => {
      const { accountId, token: own } = await service.createAccount(100);
      const balance = async () =>
        (
          (await service.database.db.execute(sql`SELECT balance_cents AS cents FROM accounts WHERE id = ${accountId}`)) as unknown as {
            rows: Array<{ cents: number }>;
          }
        ).rows[0]!.cents;
      const before = await balance();
      for (const mode of ['test', 'live'])
        for (const [encoding, encode] of Object.entries(ENCODINGS)) {
          const fields = { api_token: own, mode, url: media.audio(60), language: 'english', vocabulary: `Kyiv, ${term}` };
          const res = await fetch(`${service.baseUrl}/api/v4/transcriptions`, { method: 'POST', ...encode(fields) });
          const body = await res.text();
          expect(res.status, `${mode} ${encoding}: ${body}`).toBe(400);
          expect(body, `${mode} ${encoding}`).toContain(`vocabulary: term 2 (`);
          expect(body, `${mode} ${encoding}`).toContain(`holds ${codePoint} at character ${at}`);
          // The refusal shows the character escaped, never the character itself.
          expect(
            [...body].some((c) => c !== '\n' && /[\p{Cf}\p{Cc}]/u.test(c)),
            `${mode} ${encoding}: ${JSON.stringify(body)}`,
          ).toBe(false);
        }
      expect(await balance()).toBe(before);
      const placed = (await service.database.db.execute(sql`SELECT count(*)::int AS n FROM orders WHERE account_id = ${accountId}`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      expect(placed.rows[0]!.n).toBe(0);
    },
  );

  it('keeps terms in NFC (Cafe\u0301 and Café are one term, the first kept) and a ZWNJ inside a Persian word', async () => {
    const persian = 'می\u200Cخواهم';
    const { orderId } = await placeOrder(service, {
      token,
      fields: { url: media.audio(60), language: 'english', vocabulary: `Cafe\u0301, Café\n${persian}, CAFE\u0301` },
    });
    const record = await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`);
    expect(record.body.data.vocabulary).toEqual(['Café', persian]);
    expect(record.body.data.vocabulary[0]).toBe('Caf\u00E9');
  });
});

describe('terms shown on pages and by order-ops, isolated and escaped', () => {
  let service: TestService;
  let media: MediaServer;
  beforeAll(async () => {
    [service, media] = await Promise.all([startService({}), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  it("hold each term in a <bdi> of its own on the order page and the workbench's task page, and order-ops show escapes a stored override", async () => {
    const { token } = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token, fields: { url: media.audio(40), language: 'english', vocabulary: ['Zyphrex', 'Kyiv', "O'Brien"] } });
    // An order placed before such terms were refused: the override stored as it was sent then.
    const terms = ['Zyphrex', 'abc\u202Edef', 'Kyiv', "O'Brien"];
    await service.database.db.execute(sql`UPDATE orders SET params = jsonb_set(params, '{vocabulary}', ${JSON.stringify(terms)}::jsonb) WHERE id = ${orderId}`);
    const bdis = (page: string, selector: string) => {
      const shown = parse(page).querySelector(selector);
      expect(shown, selector).not.toBeNull();
      return shown!.querySelectorAll('bdi').map((bdi) => bdi.textContent);
    };

    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const orderPage = await customer.request('GET', `/account/orders/${orderId}`);
    expect(orderPage.status).toBe(200);
    expect(bdis(orderPage.text, 'dd[data-param="vocabulary"]')).toEqual(terms);

    const taskId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
    const worker = (await service.ops('POST', '/ops/workers', { name: 'Vera', skills: 'transcription:english' })).body as { sign_in_token: string };
    const vera = await WorkerSession.signIn(service.baseUrl, worker.sign_in_token);
    const taskPage = await vera.request('GET', `/work/tasks/${taskId}`);
    expect(taskPage.status).toBe(200);
    expect(bdis(taskPage.text, 'ul#terms')).toEqual(terms);
    expect(parse(taskPage.text).querySelectorAll('ul#terms > li > bdi')).toHaveLength(terms.length);

    // order-ops show: the same JSON, with the override written as its escape, so it cannot reorder the terminal.
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli/order-ops.js', 'show', String(orderId)], {
      env: { ...process.env, ORDER_SERVICE_URL: service.baseUrl, OPS_TOKEN: service.opsToken },
    });
    expect(stdout).not.toContain('\u202E');
    expect(stdout).toContain('abc\\u202edef');
    expect(JSON.parse(stdout).params.vocabulary).toEqual(terms);
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
