import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';
import { isSilent } from '../../src/engines/transcript.js';
import { EngineFaultError, EngineRejectedError, type TranscribeRequest } from '../../src/engines/types.js';
import { freePort } from '../helpers/net.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';

let server: EngineServer;
beforeAll(async () => {
  server = await startEngineServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const audio = new Uint8Array(12_345).fill(7);
const request = (extra: Partial<TranscribeRequest> = {}): TranscribeRequest => ({
  audio,
  fileName: 'interview.wav',
  contentType: 'audio/wav',
  language: 'en',
  timeoutMs: 10_000,
  ...extra,
});
const engine = () => openAiCompatibleEngine({ baseUrl: `${server.url}/`, model: 'whisper-1', apiKey: 'sk-test' });

describe('openAiCompatibleEngine', () => {
  it("sends the multipart request and reads segments with their own word timings, each segment's decoding figures and a word's probability where given", async () => {
    server.behaviour = {
      kind: 'transcript',
      body: verboseJson(
        [
          ['Hello', 0, 0.4, 0.91],
          ['there.', 0.5, 1],
          ['Bye', 1.5, 1.8],
          ['now!', 1.9, 2.2],
        ],
        { words: 'segments', language: 'english', duration: 2.5 },
      ),
    };
    const t = await engine().transcribe(request());
    expect(t).toEqual({
      language: 'english',
      duration: 2.5,
      segments: [
        {
          start: 0,
          end: 1,
          text: 'Hello there.',
          avgLogprob: -0.2,
          compressionRatio: 1.2,
          noSpeechProb: 0.01,
          words: [
            { text: 'Hello', start: 0, end: 0.4, probability: 0.91 },
            { text: 'there.', start: 0.5, end: 1 },
          ],
        },
        {
          start: 1.5,
          end: 2.2,
          text: 'Bye now!',
          avgLogprob: -0.2,
          compressionRatio: 1.2,
          noSpeechProb: 0.01,
          words: [
            { text: 'Bye', start: 1.5, end: 1.8 },
            { text: 'now!', start: 1.9, end: 2.2 },
          ],
        },
      ],
    });
    expect(server.requests).toHaveLength(1);
    const received = server.requests[0]!;
    expect(received.method).toBe('POST');
    expect(received.path).toBe('/v1/audio/transcriptions');
    expect(received.headers.authorization).toBe('Bearer sk-test');
    expect(received.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(received.fields).toEqual({
      model: ['whisper-1'],
      language: ['en'],
      response_format: ['verbose_json'],
      'timestamp_granularities[]': ['word', 'segment'],
    });
    expect(received.file).toEqual({ name: 'interview.wav', size: 12_345, type: 'audio/wav' });
  });

  it('leaves the language to the engine when none is given, and asks /v1/audio/translations for English', async () => {
    server.behaviour = { kind: 'transcript', body: verboseJson([['Hola.', 0, 0.5]], { language: 'spanish' }) };
    expect((await engine().transcribe(request({ language: undefined }))).language).toBe('spanish');
    server.behaviour = { kind: 'transcript', body: { ...verboseJson([['Hello.', 0, 0.5]], { language: 'spanish' }), task: 'translate' } };
    const english = await engine().translateToEnglish(request({ language: 'es' }));
    expect(english.segments.map((s) => s.text)).toEqual(['Hello.']);
    expect(server.requests.map((r) => [r.path, r.fields.language])).toEqual([
      ['/v1/audio/transcriptions', undefined],
      ['/v1/audio/translations', undefined],
    ]);
  });

  it('sends no authorization without an API key', async () => {
    await openAiCompatibleEngine({ baseUrl: server.url, model: 'small' }).transcribe(request());
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.fields.model).toEqual(['small']);
  });

  it("asks for a background request (a draft) with RFC 9218's lowest urgency, and for no other", async () => {
    await engine().transcribe(request({ background: true }));
    await engine().transcribe(request());
    expect(server.requests.map((r) => r.headers.priority)).toEqual(['u=7', undefined]);
  });

  it('distributes top-level words to the segments they start in, trimming them', async () => {
    const body = verboseJson([
      [' One', 0, 0.3],
      [' two.', 0.4, 0.9],
      [' Three', 1.2, 1.5],
      [' four.', 1.6, 2],
    ]);
    server.behaviour = { kind: 'transcript', body };
    const t = await engine().transcribe(request());
    expect(t.segments.map((s) => s.text)).toEqual(['One two.', 'Three four.']);
    expect(t.segments.map((s) => s.words.map((w) => w.text))).toEqual([
      ['One', 'two.'],
      ['Three', 'four.'],
    ]);
    expect(t.segments[1]!.words[0]).toEqual({ text: 'Three', start: 1.2, end: 1.5 });
  });

  it('gives a word starting on a boundary to the segment it opens, and drops empty words', async () => {
    server.behaviour = {
      kind: 'transcript',
      body: {
        text: 'A b c',
        segments: [
          { start: 0, end: 1, text: 'A' },
          { start: 1, end: 2, text: 'b c' },
        ],
        words: [
          { word: 'c', start: 2, end: 2 },
          { word: 'A', start: 0, end: 1 },
          { word: ' ', start: 1, end: 1 },
          { word: 'b', start: 1, end: 1.5 },
        ],
      },
    };
    const t = await engine().transcribe(request());
    expect(t.segments.map((s) => s.words.map((w) => w.text))).toEqual([['A'], ['b', 'c']]);
  });

  it('makes one segment of an answer with text but no segments', async () => {
    server.behaviour = {
      kind: 'transcript',
      body: {
        text: ' Just text. ',
        duration: 4,
        words: [
          { word: 'Just', start: 0.5, end: 0.9 },
          { word: 'text.', start: 1, end: 1.4 },
        ],
      },
    };
    const t = await engine().transcribe(request());
    expect(t.segments).toEqual([
      {
        start: 0,
        end: 4,
        text: 'Just text.',
        words: [
          { text: 'Just', start: 0.5, end: 0.9 },
          { text: 'text.', start: 1, end: 1.4 },
        ],
      },
    ]);
  });

  it('returns no segments for silence', async () => {
    server.behaviour = {
      kind: 'transcript',
      body: { task: 'transcribe', language: 'english', duration: 30, text: '', segments: [{ start: 0, end: 30, text: '  ' }], words: [] },
    };
    const t = await engine().transcribe(request());
    expect(t).toEqual({ segments: [], language: 'english', duration: 30 });
    expect(isSilent(t)).toBe(true);
  });

  it.each([
    [400, JSON.stringify({ error: { message: 'Audio file is invalid or corrupted.', type: 'invalid_request_error' } }), 'Audio file is invalid or corrupted.'],
    [413, 'Maximum content size limit exceeded', 'Maximum content size limit exceeded'],
    [415, 'unsupported media type', 'unsupported media type'],
    [422, JSON.stringify({ error: { message: 'language xx is not supported' } }), 'language xx is not supported'],
  ])('rejects on HTTP %i with the server message', async (status, body, message) => {
    server.behaviour = { kind: 'status', status, body };
    const err = await engine()
      .transcribe(request())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineRejectedError);
    expect((err as Error).message).toBe(message);
  });

  it('rejects with the status when the server says nothing', async () => {
    server.behaviour = { kind: 'status', status: 415, body: '' };
    await expect(engine().transcribe(request())).rejects.toThrow(new EngineRejectedError('the engine answered HTTP 415'));
  });

  it('truncates a long server message to 200 characters', async () => {
    server.behaviour = { kind: 'status', status: 400, body: 'x'.repeat(5000) };
    const err = (await engine()
      .transcribe(request())
      .catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(EngineRejectedError);
    expect(err.message).toMatch(/^x{199}…$/);
  });

  it.each([500, 503, 429, 408])('reports HTTP %i as a fault worth retrying', async (status) => {
    server.behaviour = { kind: 'status', status, body: 'busy' };
    const err = await engine()
      .transcribe(request())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineFaultError);
    expect(err).not.toBeInstanceOf(EngineRejectedError);
    expect((err as Error).message).toContain(`HTTP ${status}`);
  });

  it('gives up with a fault when the engine does not answer in time', async () => {
    server.behaviour = { kind: 'hang' };
    const started = Date.now();
    const err = await engine()
      .transcribe(request({ timeoutMs: 300 }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineFaultError);
    expect((err as Error).message).toContain('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it("rethrows the caller's abort", async () => {
    server.behaviour = { kind: 'hang' };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await engine()
      .transcribe(request({ signal: controller.signal }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('AbortError');
    expect(err).not.toBeInstanceOf(EngineFaultError);
  });

  it('does not even send when the caller has already aborted', async () => {
    const err = await engine()
      .transcribe(request({ signal: AbortSignal.abort('stop') }))
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(server.requests).toHaveLength(0);
  });

  it('reports an answer that is not JSON, or not verbose_json, as a fault', async () => {
    server.behaviour = { kind: 'status', status: 200, body: '<html>gateway</html>' };
    const notJson = await engine()
      .transcribe(request())
      .catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(EngineFaultError);
    expect((notJson as Error).message).toContain('not JSON');

    server.behaviour = { kind: 'transcript', body: { segments: [{ start: 0, end: 1, text: 42 }] } };
    const wrongShape = await engine()
      .transcribe(request())
      .catch((e: unknown) => e);
    expect(wrongShape).toBeInstanceOf(EngineFaultError);
    expect((wrongShape as Error).message).toContain('segments.0.text');
  });

  it('refuses to read an answer over 20 MB', async () => {
    server.behaviour = { kind: 'status', status: 200, body: ' '.repeat(21 * 1024 * 1024) };
    const err = await engine()
      .transcribe(request())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineFaultError);
    expect((err as Error).message).toContain('larger than 20971520 bytes');
  });

  it('reports a network error as a fault', async () => {
    const port = await freePort();
    const err = await openAiCompatibleEngine({ baseUrl: `http://127.0.0.1:${port}`, model: 'm' })
      .transcribe(request())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineFaultError);
    expect((err as Error).message).toContain('ECONNREFUSED');
  });

  it('lets the behaviour depend on the request', async () => {
    server.behaviour = (fields) =>
      fields.language?.[0] === 'xx' ? { kind: 'status', status: 422, body: 'unknown language' } : { kind: 'transcript', body: verboseJson([['Ok.', 0, 1]]) };
    await expect(engine().transcribe(request({ language: 'xx' }))).rejects.toThrow(EngineRejectedError);
    expect((await engine().transcribe(request())).segments[0]!.text).toBe('Ok.');
  });
});
