// Machine fulfilment through the OpenAI-compatible seam, against a loopback engine: AI orders
// become transcripts and captions timed by the engine's words, forced alignments place the known
// words; no speech, a refusal or text that does not match the audio is refunded; without an
// engine the orders wait for a person.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { docxOf, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { tasksOfOrder } from '../../src/db/tasks.js';
import { getOrder } from '../../src/db/orders.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { patchMarkerIds, recordHistory } from '../helpers/histories.js';
import { startLibreTranslate } from '../helpers/libreTranslate.js';
import { translatorsFrom } from '../../src/engines/translators.js';
import { engineDiarizer } from '../../src/engines/diarizer.js';
import { accounts, ledgerEntries } from '../../src/db/schema.js';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';
import { recognitionAligner } from '../../src/engines/aligners.js';
import { engineTaskQueue, orderWorkflowId } from '../../src/contracts/orders.js';
import { workflowsBeforePatches } from '../helpers/workflowsBefore.js';

const SPOKEN: Array<[string, number, number]> = [
  ['Welcome', 0.0, 0.5],
  ['to', 0.5, 0.7],
  ['the', 0.7, 0.9],
  ['show.', 0.9, 1.6],
  ['Today', 2.0, 2.4],
  ['we', 2.4, 2.6],
  ['talk', 2.6, 3.0],
  ['about', 3.0, 3.4],
  ['whales.', 3.4, 4.2],
];

let media: MediaServer;
let docs: DocumentServer;
let receiver: CallbackReceiver;
let engine: EngineServer;
beforeAll(async () => {
  [media, docs, receiver, engine] = await Promise.all([startMediaServer(), startDocumentServer(), startCallbackReceiver(), startEngineServer()]);
});
afterAll(async () => {
  await Promise.all([media?.close(), docs?.close(), receiver?.close(), engine?.close()]);
});

const callbacksFor = (orderId: number) => receiver.received.filter((c) => c.fields.order_id === String(orderId));
const firstCallback = (orderId: number) => waitFor(() => callbacksFor(orderId)[0], `the callback of order ${orderId}`, 60_000);

describe('drafts on a queue of their own', () => {
  it('an AI order is not held up by a draft the engine keeps waiting (drafts run on idle CPU only): each has its own slot', async () => {
    // An engine of its own, closed at the end: the draft's request is cut and the worker can drain.
    const slow = await startEngineServer();
    slow.behaviour = (_fields, _path, headers) => (headers.priority === 'u=7' ? { kind: 'hang' } : { kind: 'transcript', body: verboseJson(SPOKEN) });
    // One engine activity at a time, as ENGINE_CONCURRENCY's default.
    const service = await startService({ engines: { speech: openAiCompatibleEngine({ baseUrl: slow.url, model: 'whisper-test' }) } });
    try {
      const { token } = await service.createAccount(10);
      await placeOrder(service, { token, fields: englishAudio(media) });
      await waitFor(() => slow.requests.find((r) => r.headers.priority === 'u=7'), 'the draft asked of the engine', 30_000);
      const { orderId } = await placeOrder(service, { token, path: 'ai-transcriptions', fields: { url: media.audio(60), language: 'english' } });
      await waitFor(
        async () => (await getOrder(service.database.db, orderId))?.status === 'finished',
        'the AI order finished beside the waiting draft',
        30_000,
      );
      expect(slow.requests.filter((r) => r.headers.priority === undefined)).toHaveLength(1);
    } finally {
      await slow.close();
      await service.close();
    }
  });

  it('an order in flight from before (no drafts-queue marker) has its draft made on the engine queue by the new workers', async () => {
    // The engine refuses drafts (503) while the workers run the workflows as they were before the
    // patch, so the draft's activity waits for its retry on the queue the old code named.
    const flaky = await startEngineServer();
    flaky.behaviour = { kind: 'status', status: 503, body: 'busy' };
    const service = await startService({ engines: { speech: openAiCompatibleEngine({ baseUrl: flaky.url, model: 'whisper-test' }) }, inProcessWorker: false });
    try {
      await service.startWorker(await workflowsBeforePatches());
      const { token } = await service.createAccount(10);
      const { orderId } = await placeOrder(service, { token, fields: englishAudio(media) });
      const handle = service.temporal.workflow.getHandle(orderWorkflowId(orderId));
      const draftsAsked = async () =>
        ((await handle.fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'openWork');
      const [scheduled] = await waitFor(
        async () => {
          const asked = await draftsAsked();
          return asked.length ? asked : undefined;
        },
        'the draft asked for',
        30_000,
      );
      expect(scheduled!.activityTaskScheduledEventAttributes!.taskQueue!.name).toBe(engineTaskQueue(service.taskQueue));
      await waitFor(() => flaky.requests.length > 0, 'the refused draft request', 30_000);

      // Deployed: the current workflows (with the patch) and their three workers take over.
      await service.stopWorker();
      await service.startWorker();
      flaky.behaviour = { kind: 'transcript', body: verboseJson(SPOKEN) };
      const [task] = await waitFor(
        async () => {
          const tasks = await tasksOfOrder(service.database.db, orderId);
          return tasks.length ? tasks : undefined;
        },
        'the work task with its draft',
        60_000,
      );
      expect(task!.draft).toContain('Welcome to the show.');
      const history = await handle.fetchHistory();
      const events = history.events ?? [];
      // The old branch to the end: no marker, the one draft activity where the old code asked for
      // it (retried there, not scheduled again), and no workflow task failed on the new code.
      expect(patchMarkerIds(history)).toEqual([]);
      expect(await draftsAsked()).toHaveLength(1);
      const started = events.filter(
        (e) => e.activityTaskStartedEventAttributes && e.activityTaskStartedEventAttributes.scheduledEventId?.toString() === scheduled!.eventId?.toString(),
      );
      expect(Number(started[0]!.activityTaskStartedEventAttributes!.attempt)).toBeGreaterThanOrEqual(2);
      expect(events.filter((e) => e.workflowTaskFailedEventAttributes)).toEqual([]);
    } finally {
      await flaky.close();
      await service.close();
    }
  }, 120_000);
});

describe('with an OpenAI-compatible engine', () => {
  let service: TestService;
  beforeAll(async () => {
    const speech = openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' });
    service = await startService({ engines: { speech, alignment: recognitionAligner(speech) } });
  });
  afterAll(() => service?.close());

  const balance = async (accountId: number) => (await service.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!;
  const aiOrder = async (token: string, language = 'english') => {
    const { orderId } = await placeOrder(service, { token, path: 'ai-transcriptions', fields: { url: media.audio(60), language }, callbackUrl: receiver.url });
    return orderId;
  };

  it("speech in another language than the one ordered: English is the engine's translation; any other pair goes to a translator, never a forced transcript", async () => {
    const SPANISH: Array<[string, number, number]> = [
      ['Hola', 0, 0.4],
      ['a', 0.4, 0.5],
      ['todos.', 0.5, 1.2],
    ];
    const ENGLISH: Array<[string, number, number]> = [
      ['Hello', 0, 0.4],
      ['everyone.', 0.4, 1.2],
    ];
    engine.behaviour = (_fields, path) => ({
      kind: 'transcript',
      body:
        path === '/v1/audio/translations'
          ? { ...verboseJson(ENGLISH, { language: 'spanish' }), task: 'translate' }
          : verboseJson(SPANISH, { language: 'spanish' }),
    });
    const { token } = await service.createAccount(10);
    const before = engine.requests.length;
    const english = await aiOrder(token, 'english');
    const callback = await firstCallback(english);
    expect(callback.fields).toMatchObject({ status: 'finished', language: 'english' });
    expect(engine.requests.slice(before).map((r) => r.path)).toEqual(['/v1/audio/transcriptions', '/v1/audio/translations']);
    const text = await service.get(callback.fields.transcription_url!.replace(service.baseUrl, '') + '&format=text');
    expect(text.body).toContain('Hello everyone.');
    expect(text.body).not.toContain('Hola');
    expect((await service.ops('GET', `/ops/orders/${english}`)).body).toMatchObject({
      status: 'finished',
      engine_note: "The file is spoken in spanish, the order asked for english: delivered as the engine's English translation.",
    });

    // Ordered in French: no engine translates Spanish into French here, so a translator takes it
    // in the workbench, from the engine's Spanish transcript.
    const french = await aiOrder(token, 'french');
    const task = await waitFor(async () => (await tasksOfOrder(service.database.db, french))[0], "the translator's task", 30_000);
    expect(task).toMatchObject({ skill: 'translation:spanish>french', stage: 'work', draft: '[00:00:00] Hola a todos.' });
    // The hand-off's plan is kept on the order beside the placement's (which had no people in it).
    expect((await getOrder(service.database.db, french))!.plan).toMatchObject({ fulfilment: 'engine', work: { skill: 'translation:spanish>french' } });
    expect((await service.ops('GET', `/ops/orders/${french}`)).body).toMatchObject({
      status: 'paid',
      working_on: 'operator',
      assignee: 'operator',
      engine_note:
        "The file is spoken in spanish, the order asked for french: no engine translates the pair; a person translates the engine's spanish transcript.",
    });
    expect(callbacksFor(french)).toHaveLength(0);

    // Handed to a translator: due when a translation is (72 hours from the hand-off), not in the
    // machine's hour; the record, order-ops and the callback say so.
    const record = (await service.get(`/api/v4/orders/${french}?api_token=${token}&mode=live`)).body.data;
    const dueInHours = (Date.parse(`${record.delivery_estimate.replace(' ', 'T')}Z`) - Date.now()) / 3_600_000;
    expect(dueInHours).toBeGreaterThan(71.5);
    expect(dueInHours).toBeLessThan(72.1);
    expect((await service.ops('GET', `/ops/orders/${french}`)).body.handed_over).toMatchObject({ at: expect.any(String), reason: expect.any(String) });
    // The customer's timeline in the account area says when and why, and the new estimate.
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const page = (await customer.request('GET', `/account/orders/${french}`)).text.replace(/\s+/g, ' ');
    expect(page).toMatch(/Handed to a person, as no speech engine could do it \([^)]*translat[^)]*\)/);
    expect(page).toMatch(new RegExp(`new delivery estimate <time[^>]*>${record.delivery_estimate} UTC</time>`));
    const completed = await service.complete(french, 'translation.json', JSON.stringify([{ text: 'Bonjour à tous.', start: 0, end: 1.2 }]), [
      'transcription',
      'captions',
    ]);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect((await firstCallback(french)).fields).toMatchObject({ status: 'finished', delivery_estimate: record.delivery_estimate });
    // An order the engine finished keeps the contract's shape.
    expect((await firstCallback(english)).fields.delivery_estimate).toBeUndefined();
  });

  it("speech in another language than the one ordered, where the user's LibreTranslate-compatible server covers the pair: its translation of the transcript is delivered; one it refuses goes to a translator", async () => {
    const mt = await startLibreTranslate([
      { code: 'es', name: 'Spanish', targets: ['de'] },
      { code: 'de', name: 'German', targets: [] },
    ]);
    const speech = openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' });
    const withMt = await startService({ engines: { speech, translators: await translatorsFrom({ libreTranslate: { baseUrl: mt.url }, apertium: false }) } });
    try {
      engine.behaviour = {
        kind: 'transcript',
        body: verboseJson(
          [
            ['Hola', 0, 0.4],
            ['a', 0.4, 0.5],
            ['todos.', 0.5, 1.2],
          ],
          { language: 'spanish' },
        ),
      };
      const { token } = await withMt.createAccount(10);
      const { orderId } = await placeOrder(withMt, {
        token,
        path: 'ai-transcriptions',
        fields: { url: media.audio(60), language: 'german' },
        callbackUrl: receiver.url,
      });
      const callback = await firstCallback(orderId);
      expect(callback.fields).toMatchObject({ status: 'finished', language: 'german' });
      expect(mt.requests.find((r) => r.path === '/translate')?.body).toMatchObject({ q: ['Hola a todos.'], source: 'es', target: 'de', format: 'text' });
      const text = await withMt.get(callback.fields.transcription_url!.replace(withMt.baseUrl, '') + '&format=text');
      expect(text.body).toContain('[de] Hola a todos.');
      expect((await withMt.ops('GET', `/ops/orders/${orderId}`)).body.engine_note).toMatch(
        /^The file is spoken in spanish, the order asked for german: delivered as libretranslate:127\.0\.0\.1:\d+'s machine translation of the engine's spanish transcript\.$/,
      );

      // A translation the server refuses: a translator takes the order; it is not refunded.
      mt.behaviour = { kind: 'status', status: 400, body: '{"error":"text too long"}' };
      const refused = await placeOrder(withMt, {
        token,
        path: 'ai-transcriptions',
        fields: { url: media.audio(60), language: 'german' },
        callbackUrl: receiver.url,
      });
      const task = await waitFor(async () => (await tasksOfOrder(withMt.database.db, refused.body.order_id))[0], "the translator's task", 30_000);
      expect(task).toMatchObject({ skill: 'translation:spanish>german', draft: '[00:00:00] Hola a todos.' });
      expect(callbacksFor(refused.body.order_id)).toHaveLength(0);
    } finally {
      await Promise.all([withMt.close(), mt.close()]);
    }
  });

  it('a transcript the gate holds back goes to a transcriber whose draft marks the words the engine doubted', async () => {
    // English, but the engine was unsure of most words (speech under noise).
    const WORDS: Array<[string, number, number, number]> = 'The meeting starts at nine. Please bring the quarterly figures and your notes.'
      .split(' ')
      .map((w, i) => [w, i * 0.5, i * 0.5 + 0.4, i % 3 === 0 ? 0.9 : 0.3]);
    engine.behaviour = { kind: 'transcript', body: verboseJson(WORDS, { language: 'english' }) };
    const { token } = await service.createAccount(10);
    const held = await aiOrder(token, 'english');
    const task = await waitFor(async () => (await tasksOfOrder(service.database.db, held))[0], "the transcriber's task", 30_000);
    expect(task).toMatchObject({ skill: 'transcription:english', stage: 'work', draft: expect.stringContaining('The meeting starts at nine.') });
    expect((await service.ops('GET', `/ops/orders/${held}`)).body.engine_note).toMatch(/transcript failed the transcript gate \(.*mean confidence is 0\.5/);
    // Every word under 0.5 is marked, by its token in the draft's paragraph (after the time mark).
    const doubts = (await getOrder(service.database.db, held))!.draftDoubts!;
    const marked = doubts.flatMap((d) => d.tokens.map((t) => d.paragraph.split(/\s+/)[t]));
    expect(marked).toEqual(WORDS.filter(([, , , p]) => p < 0.5).map(([w]) => w));
    expect(callbacksFor(held)).toHaveLength(0);
  });

  it("the gate's other route to English: a looping translation by the engine is not delivered, the transcript's machine translation is; a machine translation that loops goes to a translator", async () => {
    const mt = await startLibreTranslate([
      { code: 'de', name: 'German', targets: ['en'] },
      { code: 'en', name: 'English', targets: [] },
    ]);
    const speech = openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' });
    const withMt = await startService({ engines: { speech, translators: await translatorsFrom({ libreTranslate: { baseUrl: mt.url }, apertium: false }) } });
    // German the engine is sure of; its English translation a loop it is unsure of (Whisper's way of failing).
    const GERMAN = 'Heute ist ein guter Tag. Der Hund läuft durch den Park und die Kinder spielen mit dem Ball.'.split(' ');
    const LOOP = 'It is a good thing to be able to make a new world. It is a good thing to be able to make a new world.'.split(' ');
    const timed = (words: string[], probability: number) => words.map((w, i): [string, number, number, number] => [w, i * 0.4, i * 0.4 + 0.35, probability]);
    engine.behaviour = (_fields, path) => ({
      kind: 'transcript',
      body:
        path === '/v1/audio/translations'
          ? { ...verboseJson(timed(LOOP, 0.3), { language: 'german' }), task: 'translate' }
          : verboseJson(timed(GERMAN, 0.92), { language: 'german' }),
    });
    try {
      const { token } = await withMt.createAccount(10);
      const order = () => placeOrder(withMt, { token, path: 'ai-transcriptions', fields: englishAudio(media), callbackUrl: receiver.url });
      const placed = await order();
      const callback = await firstCallback(placed.orderId);
      expect(callback.fields).toMatchObject({ status: 'finished', language: 'english' });
      const text = await withMt.get(callback.fields.transcription_url!.replace(withMt.baseUrl, '') + '&format=text');
      expect(text.body).toContain('[en] Heute ist ein guter Tag.');
      expect(text.body).not.toContain('good thing');
      const note = (await withMt.ops('GET', `/ops/orders/${placed.orderId}`)).body.engine_note as string;
      expect(note).toMatch(/^The engine's English translation failed the transcript gate \(.*mean confidence is 0\.3 \(under 0\.6\).*\)\. /);
      expect(note).toMatch(/delivered as libretranslate:127\.0\.0\.1:\d+'s machine translation of the engine's german transcript\.$/);

      // The machine translation loops too: a translator takes the order, from the German transcript.
      mt.behaviour = {
        kind: 'answer',
        body: JSON.stringify({ translatedText: ['the day the day the day the day.', 'the day the day the day the day the day the day.'] }),
      };
      const looping = await order();
      const task = await waitFor(async () => (await tasksOfOrder(withMt.database.db, looping.orderId))[0], "the translator's task", 30_000);
      expect(task).toMatchObject({ skill: 'translation:german>english', stage: 'work' });
      expect((await withMt.ops('GET', `/ops/orders/${looping.orderId}`)).body.engine_note).toMatch(/machine translation failed the transcript gate \(.*repeat/);
      expect(callbacksFor(looping.orderId)).toHaveLength(0);
    } finally {
      await Promise.all([withMt.close(), mt.close()]);
    }
  });

  it("a diarizer of the user's (DIARIZER_URL) labels the draft's speakers; an estimate above two on a 1_or_2 order is asked again for two; a diarizer that fails leaves the draft unlabelled", async () => {
    const WORDS: Array<[string, number, number]> = [
      ['Hello', 0, 0.5],
      ['there.', 0.5, 1],
      ['Good', 2, 2.5],
      ['morning.', 2.5, 3],
      ['Bye.', 4, 4.5],
    ];
    const turns = (speakers: string[]) => ({
      speakers: new Set(speakers).size,
      segments: speakers.map((speaker, i) => ({ speaker, start: i * 2, end: i * 2 + 1.5 })),
    });
    engine.behaviour = (fields, path) =>
      path !== '/v1/audio/diarization'
        ? { kind: 'transcript', body: verboseJson(WORDS) }
        : // Three speakers estimated; two when told there are two.
          { kind: 'transcript', body: fields.speakers?.[0] === '2' ? turns(['A', 'B', 'A']) : turns(['A', 'B', 'C']) };
    const speech = openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' });
    const withDiarizer = await startService({ engines: { speech, diarizer: engineDiarizer(engine.url) } });
    try {
      const { token } = await withDiarizer.createAccount(10);
      const draftOf = async (fields: Record<string, string>) => {
        const { orderId } = await placeOrder(withDiarizer, { token, fields: { ...englishAudio(media), ...fields } });
        return (await waitFor(async () => (await tasksOfOrder(withDiarizer.database.db, orderId))[0], 'the work task', 30_000)).draft;
      };
      const before = engine.requests.length;
      expect(await draftOf({})).toBe('[00:00:00] Speaker 1: Hello there.\n\n[00:00:02] Speaker 2: Good morning.\n\n[00:00:04] Speaker 1: Bye.');
      expect(
        engine.requests
          .slice(before)
          .filter((r) => r.path === '/v1/audio/diarization')
          .map((r) => r.fields.speakers?.[0]),
      ).toEqual([undefined, '2']);
      // A draft is background work: each of its requests asks for RFC 9218's lowest urgency.
      expect(engine.requests.slice(before).map((r) => [r.path, r.headers.priority])).toEqual([
        ['/v1/audio/transcriptions', 'u=7'],
        ['/v1/audio/diarization', 'u=7'],
        ['/v1/audio/diarization', 'u=7'],
      ]);
      expect(await draftOf({ number_of_speakers: '3_or_more' })).toMatch(/Speaker 3: Bye\.$/);

      engine.behaviour = (_fields, path) =>
        path !== '/v1/audio/diarization' ? { kind: 'transcript', body: verboseJson(WORDS) } : { kind: 'status', status: 500, body: 'out of memory' };
      expect(await draftOf({})).toBe('[00:00:00] Hello there.\n\n[00:00:02] Good morning.\n\n[00:00:04] Bye.');
    } finally {
      await withDiarizer.close();
    }
  });

  it('an engine unsure of the language (the ordered one plausible) transcribes in the ordered one, and says so', async () => {
    engine.behaviour = (fields) => ({
      kind: 'transcript',
      body:
        fields.language?.[0] === 'es'
          ? verboseJson(
              [
                ['Hola', 0, 0.4],
                ['a', 0.4, 0.5],
                ['todos.', 0.5, 1.2],
              ],
              { language: 'spanish' },
            )
          : { ...verboseJson([['โอละ', 0, 1.2]], { language: 'thai' }), language_probabilities: { th: 0.38, es: 0.17, ja: 0.08 } },
    });
    const { token } = await service.createAccount(10);
    const before = engine.requests.length;
    const id = await aiOrder(token, 'spanish');
    const callback = await firstCallback(id);
    expect(callback.fields.status).toBe('finished');
    expect(engine.requests.slice(before).map((r) => r.fields.language?.[0])).toEqual([undefined, 'es']);
    expect(String((await service.get(callback.fields.transcription_url!.replace(service.baseUrl, '') + '&format=text')).body)).toContain('Hola a todos.');
    expect((await service.ops('GET', `/ops/orders/${id}`)).body.engine_note).toBe(
      'The engine was unsure of the spoken language (thai 0.38, spanish 0.17): transcribed as spanish, as ordered.',
    );
  });

  it("proofreading checks the supplied transcript against the engine's: a good one goes to a proofreader, a wrong one is refunded or handed on with no person acting", async () => {
    engine.behaviour = { kind: 'transcript', body: verboseJson(SPOKEN) };
    const { token } = await service.createAccount(20);
    const proofread = async (name: string, paragraphs: string[], autoRetranscribe: boolean) => {
      const { orderId } = await placeOrder(service, {
        token,
        path: 'transcription-proofreadings',
        fields: {
          audio_url: media.audio(60),
          transcription_url: docs.serve(`/${name}.docx`, await docxOf(paragraphs)),
          language: 'english',
          auto_retranscribe: autoRetranscribe,
        },
        callbackUrl: receiver.url,
      });
      return orderId;
    };
    const good = await proofread('good', ['Welcome to the show.', 'Today we talk about wales.'], false);
    const task = await waitFor(async () => (await tasksOfOrder(service.database.db, good))[0], "the proofreader's task", 30_000);
    expect(task.draft).toContain('Today we talk about wales.');
    expect((await service.ops('GET', `/ops/orders/${good}`)).body).toMatchObject({
      status: 'paid',
      engine_note: expect.stringMatching(
        /^Automatic check of the supplied transcript: WER 0\.11 against the engine's transcript, (79|80)% of the speech covered \(it fails above WER 0\.50 or below 50%\): passed; it is the proofreader's draft\.$/,
      ),
    });

    const wrong = ['Completely different words about nothing at all here.'];
    const refunded = await proofread('wrong', wrong, false);
    expect((await firstCallback(refunded)).fields).toMatchObject({ status: 'refunded' });
    await recordHistory(service, refunded, 'transcription_proofreading-refunded-by-check');
    const shown = (await service.ops('GET', `/ops/orders/${refunded}`)).body;
    expect(shown).toMatchObject({
      status: 'refunded',
      tasks: [],
      engine_note: expect.stringMatching(/^Automatic check of the supplied transcript: WER (0\.[6-9]\d|1\.\d\d) .*: failed\.$/),
    });

    const handedOn = await proofread('wrong-again', wrong, true);
    const replaced = await waitFor(
      async () => {
        const body = (await service.ops('GET', `/ops/orders/${handedOn}`)).body;
        return body.status === 'retranscribed' && body;
      },
      'the hand-off',
      30_000,
    );
    const child = (await service.ops('GET', `/ops/orders/${replaced.retranscribed_order_id}`)).body;
    expect(child).toMatchObject({ product: 'transcription', parent_order_id: handedOn, status: 'paid' });
    // Its draft is the engine's too: done once its task opens (the next tests read the engine's last request).
    await waitFor(async () => (await tasksOfOrder(service.database.db, child.order_id))[0], "the human transcription's task", 30_000);
  });

  it('an AI order finishes with the engine transcript, and captions timed by its words', async () => {
    engine.behaviour = { kind: 'transcript', body: verboseJson(SPOKEN, { language: 'german' }) };
    const { token } = await service.createAccount(10);
    const id = await aiOrder(token, 'german');
    const callback = await firstCallback(id);
    expect(callback.fields).toMatchObject({ status: 'finished', language: 'german' });
    const sent = engine.requests.at(-1)!;
    // No language is forced on the engine: it names the one it hears (German, as ordered).
    expect(sent.fields).toMatchObject({ model: ['whisper-test'], response_format: ['verbose_json'] });
    expect(sent.fields.language).toBeUndefined();
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(sent.file?.size).toBe(44 + 8000 * 60);
    const text = await service.get(callback.fields.transcription_url!.replace(service.baseUrl, '') + '&format=text');
    expect(text.body).toContain('Welcome to the show.');
    const srt = await service.get(callback.fields.captions_url!.replace(service.baseUrl, ''));
    expect(srt.body).toMatch(/^1\n00:00:00,000 --> 00:00:01,600\nWelcome to the show\.\n\n2\n00:00:02,000 --> 00:00:04,200\nToday we talk about whales\.\n/);
    expect((await service.ops('GET', `/ops/orders/${id}`)).body).toMatchObject({ status: 'finished', assignee: 'engine', working_on: 'nobody' });
    await recordHistory(service, id, 'ai_transcription-engine-finished');
  });

  it.each([
    ['no speech', { kind: 'transcript', body: verboseJson([]) }, 'no speech was found in the file'],
    [
      'a refusal',
      { kind: 'status', status: 415, body: '{"error":{"message":"unsupported audio"}}' },
      'the engine cannot transcribe the file: unsupported audio',
    ],
  ] as const)('%s refunds the order, with both URL fields empty', async (_case, behaviour, reason) => {
    engine.behaviour = behaviour;
    const { accountId, token } = await service.createAccount(10);
    const id = await aiOrder(token);
    expect((await firstCallback(id)).fields).toEqual({
      mode: 'live',
      order_id: String(id),
      status: 'refunded',
      language: 'english',
      transcription_url: '',
      captions_url: '',
    });
    expect((await balance(accountId)).balanceCents).toBe(1000);
    const refund = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, id));
    expect(refund.find((e) => e.kind === 'refund')?.note).toBe(reason);
  });

  it('retries an engine fault and then finishes', async () => {
    let calls = 0;
    engine.behaviour = () => (++calls === 1 ? { kind: 'status', status: 503, body: 'warming up' } : { kind: 'transcript', body: verboseJson(SPOKEN) });
    const { token } = await service.createAccount(10);
    const id = await aiOrder(token);
    expect((await firstCallback(id)).fields.status).toBe('finished');
    expect(calls).toBe(2);
  });

  it('subscription minutes pay first and come back with a refund', async () => {
    engine.behaviour = { kind: 'transcript', body: verboseJson([]) };
    const { accountId, token } = await service.createAccount(10);
    expect((await service.ops('POST', `/ops/accounts/${accountId}/ai-minutes`, { minutes: 5 })).body).toEqual({
      account_id: accountId,
      ai_transcripts_minutes_left: 5,
    });
    const quote = await placeOrder(service, { token, path: 'ai-transcriptions', mode: 'test', fields: englishAudio(media, 150) });
    expect(quote.body).toMatchObject({ order_total: 0, ai_transcripts_minutes_left: 5, seconds: 150, in_wallet: 10 });
    const live = await placeOrder(service, { token, path: 'ai-transcriptions', fields: englishAudio(media, 150), callbackUrl: receiver.url });
    expect(live.body).toMatchObject({ order_total: 0, ai_transcripts_minutes_left: 2, in_wallet: 10 });
    await firstCallback(live.body.order_id);
    expect(await balance(accountId)).toMatchObject({ aiMinutes: 5, balanceCents: 1000 });
  });

  it('a forced alignment places every word of the text on the audio', async () => {
    engine.behaviour = { kind: 'transcript', body: verboseJson(SPOKEN) };
    const { token } = await service.createAccount(10);
    const text = docs.serve('/spoken.txt', 'Welcome to the show. Today we talk about whales.', 'text/plain');
    const placed = await placeOrder(service, {
      token,
      path: 'forced-alignments',
      fields: { audio_url: media.audio(60), transcription_url: text, language: 'english' },
      callbackUrl: receiver.url,
    });
    expect(placed.body).toMatchObject({ seconds: 60 });
    const callback = await firstCallback(placed.body.order_id);
    expect(callback.fields.status).toBe('finished');
    const alignment = await service.get(callback.fields.forced_alignment_transcription_url!.replace(service.baseUrl, ''));
    expect(alignment.body.words.map((w: { word: string }) => w.word)).toEqual(SPOKEN.map(([w]) => w));
    expect(alignment.body.words.map((w: { begin: number; end: number }) => [w.begin, w.end])).toEqual(SPOKEN.map(([, s, e]) => [s, e]));
    await recordHistory(service, placed.body.order_id, 'forced_alignment-engine-finished');
  });

  it('a forced alignment whose text is not what was said is refunded', async () => {
    engine.behaviour = { kind: 'transcript', body: verboseJson(SPOKEN) };
    const { accountId, token } = await service.createAccount(10);
    const text = docs.serve('/other.txt', 'An entirely different passage about mountains and rivers and snow.', 'text/plain');
    const placed = await placeOrder(service, {
      token,
      path: 'forced-alignments',
      fields: { audio_url: media.audio(60), transcription_url: text, language: 'english' },
      callbackUrl: receiver.url,
    });
    expect((await firstCallback(placed.body.order_id)).fields).toEqual({
      mode: 'live',
      order_id: String(placed.body.order_id),
      status: 'refunded',
      language: 'english',
      forced_alignment_transcription_url: '',
    });
    expect((await balance(accountId)).balanceCents).toBe(1000);
  });

  it('an order the engine is working on is not pending for a person, and cancelling it stops the engine', async () => {
    engine.behaviour = { kind: 'hang' };
    const { accountId, token } = await service.createAccount(10);
    const id = await aiOrder(token);
    const shown = await waitFor(async () => {
      const body = (await service.ops('GET', `/ops/orders/${id}`)).body;
      return body.engine_progress?.phase === 'transcribing' && body;
    }, 'the engine at work, in its heartbeats');
    expect(shown).toMatchObject({ working_on: 'engine', engine_progress: { engine: 'openai-compatible:whisper-test', audioSeconds: 60, attempt: 1 } });
    expect((await service.ops('GET', '/ops/orders/pending')).body.orders.map((o: { order_id: number }) => o.order_id)).not.toContain(id);
    const completing = await service.complete(id, 'a.srt', '1\n00:00:00,000 --> 00:00:01,000\nMade up.\n', ['transcription', 'captions']);
    expect(completing.body.error).toBe(`a speech engine is working on order ${id}; refund or cancel it, or wait`);
    expect((await service.ops('POST', `/ops/orders/${id}/cancel`, {})).body).toEqual({ order_id: id, status: 'canceled' });
    expect((await firstCallback(id)).fields).toMatchObject({ status: 'canceled', transcription_url: '', captions_url: '' });
    expect((await balance(accountId)).balanceCents).toBe(1000);
  });
});

describe('without an engine', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service?.close());

  it('AI and alignment orders wait for a person, who completes them with order-ops', async () => {
    const { token } = await service.createAccount(10);
    const { orderId: id } = await placeOrder(service, { token, path: 'ai-transcriptions', fields: englishAudio(media, 30), callbackUrl: receiver.url });
    const pending = await waitFor(async () => {
      const orders = (await service.ops('GET', '/ops/orders/pending?product=ai_transcription')).body.orders as Array<{ order_id: number }>;
      return orders.find((o) => o.order_id === id);
    }, 'the order in the pending list');
    expect(pending).toMatchObject({ product: 'ai_transcription', assignee: 'operator', result_kinds: ['transcription', 'captions'] });
    expect((await service.ops('GET', '/ops/orders/pending?product=translation')).body.orders).toEqual([]);
    const srt = '1\n00:00:00,000 --> 00:00:02,000\nA person typed this.\n';
    expect((await service.complete(id, 'typed.srt', srt, ['transcription', 'captions'])).body).toEqual({ order_id: id, status: 'finished' });
    expect((await firstCallback(id)).fields.status).toBe('finished');
  });
});
