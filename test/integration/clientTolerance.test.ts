// Clients as they really are: forms send unset fields empty, JSON clients send null, and one
// parameter set goes to several products. Empty means absent, other products' parameters are
// ignored, and a name no v4 operation knows is still refused by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { docxOf, pngImage, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { PRODUCT_LIST, type ProductKey } from '../../src/products/registry.js';
import { parameterNames } from '../../src/products/requestFields.js';

let service: TestService;
let media: MediaServer;
let docs: DocumentServer;
let token: string;
const inputs = { audio: '', transcript: '', document: '', scan: '' };
beforeAll(async () => {
  [service, media, docs] = await Promise.all([startService(), startMediaServer(), startDocumentServer()]);
  ({ token } = await service.createAccount(100));
  inputs.audio = media.audio(90);
  inputs.transcript = docs.serve('/transcript.txt', 'Ann: Hello there.\n\nBo: Hi.', 'text/plain');
  inputs.document = docs.serve('/document.docx', await docxOf(['One two three four.']));
  inputs.scan = docs.serve('/scan.png', pngImage());
});
afterAll(async () => {
  await Promise.all([service?.close(), media?.close(), docs?.close()]);
});

/** Each product's required parameters. */
const REQUIRED: Record<ProductKey, (i: typeof inputs) => Record<string, string>> = {
  transcription: (i) => ({ url: i.audio, language: 'english' }),
  ai_transcription: (i) => ({ url: i.audio, language: 'english' }),
  transcription_proofreading: (i) => ({ audio_url: i.audio, transcription_url: i.transcript, language: 'english' }),
  forced_alignment: (i) => ({ audio_url: i.audio, transcription_url: i.transcript, language: 'english' }),
  translation: (i) => ({ url: i.document, translate_from: 'english', translate_to: 'french' }),
  captions: (i) => ({ url: i.audio, language: 'english' }),
  subtitles: (i) => ({ url: i.audio, translate_from: 'english', translate_to: 'german' }),
  human_ocr: (i) => ({ url: i.scan, language: 'english' }),
};

type Encoding = 'form' | 'multipart' | 'json';
type Value = string | null;

async function quote(path: string, fields: Record<string, Value>, encoding: Encoding) {
  const all: Record<string, Value> = { api_token: token, mode: 'test', ...fields };
  let body: BodyInit;
  const headers: Record<string, string> = {};
  if (encoding === 'json') {
    body = JSON.stringify(all);
    headers['content-type'] = 'application/json';
  } else if (encoding === 'form') {
    body = new URLSearchParams(Object.entries(all).map(([k, v]) => [k, v ?? '']));
  } else {
    const form = new FormData();
    for (const [k, v] of Object.entries(all)) form.append(k, v ?? '');
    body = form;
  }
  const res = await fetch(`${service.baseUrl}/api/v4/${path}`, { method: 'POST', body, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The answer without the delivery estimate, which moves with the clock. */
const stable = ({ delivery_estimate: _, ...rest }: Record<string, unknown>) => rest;

describe.each(PRODUCT_LIST.map((p) => [p.path, p] as const))('POST /api/v4/%s', (path, product) => {
  const required = () => REQUIRED[product.key](inputs);
  const optional = () => parameterNames(product).filter((name) => !(name in required()));

  it('gives the same answer with each optional parameter sent empty, in every body encoding, as without it', async () => {
    const baseline = await quote(path, required(), 'form');
    expect(baseline.status).toBe(200);
    expect(optional().length).toBeGreaterThan(0);
    for (const name of optional()) {
      for (const encoding of ['form', 'multipart', 'json'] as const) {
        const empty = await quote(path, { ...required(), [name]: '' }, encoding);
        expect(empty.status, `${name}= as ${encoding}`).toBe(200);
        expect(stable(empty.body), `${name}= as ${encoding}`).toEqual(stable(baseline.body));
      }
      const nulled = await quote(path, { ...required(), [name]: null }, 'json');
      expect(stable(nulled.body), `${name}: null`).toEqual(stable(baseline.body));
    }
  });

  it('refuses a required parameter sent empty, naming it', async () => {
    const [name] = Object.keys(required());
    for (const encoding of ['form', 'json'] as const) {
      const res = await quote(path, { ...required(), [name!]: '' }, encoding);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`^${name}: `));
    }
  });
});

describe('parameters of other products, and names no product knows', () => {
  it('accepts and ignores comment on AI transcription and strict on captions', async () => {
    const ai = REQUIRED.ai_transcription(inputs);
    const plain = await quote('ai-transcriptions', ai, 'form');
    expect(stable((await quote('ai-transcriptions', { ...ai, comment: 'hi' }, 'form')).body)).toEqual(stable(plain.body));
    const captions = REQUIRED.captions(inputs);
    const plainCaptions = await quote('captions', captions, 'json');
    expect(stable((await quote('captions', { ...captions, strict: 'true', translate_to: 'german' }, 'json')).body)).toEqual(stable(plainCaptions.body));
    expect(service.logged.some((l) => l.message === 'parameters of other products ignored')).toBe(true);
  });

  it('still refuses a name no v4 operation knows, naming it', async () => {
    const res = await quote('transcriptions', { url: inputs.audio, languag: 'english' }, 'form');
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('unknown parameter: languag');
  });

  it("sends a live order's callback to the account's URL when callback_url is sent empty", async () => {
    const receiver = await startCallbackReceiver();
    try {
      const account = await service.createAccount(20, { callbackUrl: `${receiver.url}/account-hook` });
      const res = await fetch(`${service.baseUrl}/api/v4/transcriptions`, {
        method: 'POST',
        body: new URLSearchParams({ api_token: account.token, mode: 'live', url: inputs.audio, language: 'english', callback_url: '', comment: '' }),
      });
      const placed = (await res.json()) as { order_id: number };
      expect(res.status).toBe(200);
      expect((await service.complete(placed.order_id, 'a.txt', 'Ann: Hello.')).status).toBe(200);
      const call = await waitFor(() => receiver.received.find((c) => c.path === '/account-hook'), 'the callback at the account URL');
      expect(call.fields.order_id).toBe(String(placed.order_id));
    } finally {
      await receiver.close();
    }
  });

  it('takes an empty idempotency_key as none', async () => {
    const res = await quote('transcriptions', { ...REQUIRED.transcription(inputs), idempotency_key: '' }, 'form');
    expect(res.status).toBe(200);
  });
});
