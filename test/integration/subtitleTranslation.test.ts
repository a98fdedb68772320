// A subtitle file to translate, through the running service with ordinary HTTP: an SRT and a
// WebVTT file, served with no telling name, are priced by their cue texts' words, translated cue
// by cue in the workbench (Submit and approval refuse another number of paragraphs), and delivered
// as subtitles in their own format with every cue at its source's times to the millisecond; the
// other subtitle format and the documents on request. A document's translation offers no subtitles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSync, type NodeCue } from 'subtitle';
import { startService, type TestService } from '../helpers/service.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { startLibreTranslate } from '../helpers/libreTranslate.js';
import { waitFor } from '../helpers/net.js';
import { placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { getTask } from '../../src/db/tasks.js';
import { translatorsFrom } from '../../src/engines/translators.js';

interface SourceCue {
  start: string;
  end: string;
  voice?: string;
  lines: string[];
}

const CUES: SourceCue[] = [
  { start: '00:00:01.250', end: '00:00:03.480', voice: 'Ann', lines: ['Good morning, everyone.'] },
  { start: '00:00:03.480', end: '00:00:05.100', lines: ['JOHN: Where is the station?'] },
  { start: '00:00:06.000', end: '00:00:09.999', lines: ['It is near the river,', 'behind the old bridge.'] },
];
const srtOf = (cues: SourceCue[]) =>
  cues.map((c, i) => `${i + 1}\n${c.start.replace('.', ',')} --> ${c.end.replace('.', ',')}\n${c.lines.join('\n')}\n`).join('\n');
const vttOf = (cues: SourceCue[]) =>
  `WEBVTT\n\n${cues.map((c) => `${c.start} --> ${c.end}\n${c.voice ? `<v ${c.voice}>` : ''}${c.lines.join('\n')}\n`).join('\n')}`;
// Counted apart from the service: the cue lines split on spaces (no voice names, numbers or times).
const CUE_WORDS = CUES.flatMap((c) => c.lines.join(' ').split(/\s+/)).length;
const FRENCH = ['Bonjour à tous.', 'JOHN: Où est la gare ?', "C'est près de la rivière, derrière le vieux pont."];

const millis = (clock: string) => {
  const [h, m, s] = clock.split(':').map(Number) as [number, number, number];
  return Math.round((h * 3600 + m * 60 + s) * 1000);
};
const cuesOf = (text: string) =>
  parseSync(text)
    .filter((n): n is NodeCue => n.type === 'cue')
    .map((n) => n.data);

describe('a subtitle file translated, cue by cue', () => {
  let service: TestService;
  let docs: DocumentServer;
  let receiver: CallbackReceiver;
  let mt: Awaited<ReturnType<typeof startLibreTranslate>>;
  let tina: WorkerSession;
  let rea: WorkerSession;
  let token: string;

  beforeAll(async () => {
    [docs, receiver, mt] = await Promise.all([
      startDocumentServer(),
      startCallbackReceiver(),
      // The user's own machine translation server covers english → spanish only: french has no draft.
      startLibreTranslate([
        { code: 'en', name: 'English', targets: ['es'] },
        { code: 'es', name: 'Spanish', targets: [] },
      ]),
    ]);
    service = await startService({ engines: { translators: await translatorsFrom({ libreTranslate: { baseUrl: mt.url }, apertium: false }) } });
    ({ token } = await service.createAccount(100));
    const create = async (name: string, skills: string) =>
      (await service.ops('POST', '/ops/workers', { name, skills })).body as { worker_id: number; sign_in_token: string };
    const made = await Promise.all([create('tina', 'translation:english>french,translation:english>spanish'), create('rea', 'review:french,review:spanish')]);
    [tina, rea] = (await Promise.all(made.map((w) => WorkerSession.signIn(service.baseUrl, w.sign_in_token)))) as [WorkerSession, WorkerSession];
  });
  afterAll(async () => {
    await Promise.all([service?.close(), docs?.close(), receiver?.close(), mt?.close()]);
  });

  async function place(name: string, body: string, translateTo: string): Promise<number> {
    const fields = { url: docs.serve(`/${name}`, body, 'application/octet-stream'), translate_from: 'english', translate_to: translateTo };
    const quoted = await placeOrder(service, { token, path: 'translations', mode: 'test', fields });
    expect(quoted.body).toMatchObject({ status: 'success', words: CUE_WORDS, seconds: 0 });
    const placed = await placeOrder(service, { token, path: 'translations', fields, callbackUrl: `${receiver.url}/${name}` });
    expect(placed.body.words).toBe(CUE_WORDS);
    return placed.orderId;
  }
  const taskOf = (orderId: number, name: string) => waitFor(async () => getTask(service.database.db, `task-${orderId}-${name}`), `task-${orderId}-${name}`);
  const translationUrl = async (name: string) =>
    (await waitFor(async () => receiver.received.find((c) => c.path === `/${name}`), `the callback of ${name}`)).fields.translation_url!;

  /** The translator submits `text` (after a refused two-paragraph try); the reviewer approves it (after a refused one). */
  async function translateAndApprove(orderId: number, text: string): Promise<void> {
    const work = await taskOf(orderId, 'work');
    expect((await tina.request('POST', `/work/tasks/${work.id}/claim`, {})).location).toBe(`/work/tasks/${work.id}`);
    const short = await tina.request('POST', `/work/tasks/${work.id}/submit`, { text: `${FRENCH[0]}\n\n${FRENCH[1]} ${FRENCH[2]}` });
    expect(short.status).toBe(422);
    expect(short.text).toContain('The subtitle file has 3 cues and the translation 2 paragraphs: translate each cue as one paragraph, in order');
    expect((await tina.request('POST', `/work/tasks/${work.id}/submit`, { text })).location).toBe('/work/queue');

    const review = await taskOf(orderId, 'review-1');
    expect((await rea.request('POST', `/work/tasks/${review.id}/claim`, {})).location).toBe(`/work/tasks/${review.id}`);
    const merged = await rea.request('POST', `/work/tasks/${review.id}/review`, { text: text.split('\n\n').slice(0, 2).join(' '), decision: 'approve' });
    expect(merged.status).toBe(422);
    expect(merged.text).toContain('The subtitle file has 3 cues and the translation 1 paragraph');
    expect((await rea.request('POST', `/work/tasks/${review.id}/review`, { text, decision: 'approve' })).location).toBe('/work/queue');
  }

  it('an SRT comes back as SRT, each cue at its own times, the translated lines in it; WebVTT and text on request', async () => {
    const orderId = await place('subtitles-srt', srtOf(CUES), 'french');
    // The source beside the editor shows the cues; no machine draft for english → french.
    const work = await taskOf(orderId, 'work');
    expect(work.draft).toBe('');
    await translateAndApprove(orderId, FRENCH.join('\n\n'));

    const url = await translationUrl('subtitles-srt');
    const srt = await fetch(url);
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(srt.headers.get('content-disposition')).toBe(`attachment; filename="order-${orderId}-translation.srt"`);
    const cues = cuesOf(await srt.text());
    expect(cues.map((c) => [c.start, c.end])).toEqual(CUES.map((c) => [millis(c.start), millis(c.end)]));
    expect(cues.map((c) => c.text.replace(/\n/g, ' '))).toEqual(FRENCH);

    const vtt = await (await fetch(`${url}&format=vtt`)).text();
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(cuesOf(vtt).map((c) => [c.start, c.end])).toEqual(CUES.map((c) => [millis(c.start), millis(c.end)]));
    expect((await (await fetch(`${url}&format=text`)).text()).trim()).toBe(FRENCH.join('\n\n'));
    const ttml = await fetch(`${url}&format=ttml`);
    expect(ttml.status).toBe(400);
    expect(await ttml.json()).toMatchObject({ error: 'format: must be one of srt, vtt, docx, pdf, text for a translation file, got "ttml"' });
  });

  it('a WebVTT file comes back as WebVTT, its voices kept, from a machine draft of a paragraph per cue', async () => {
    const orderId = await place('subtitles-vtt', vttOf(CUES), 'spanish');
    const work = await taskOf(orderId, 'work');
    // The user's server translated each cue: the draft is a paragraph per cue, at the cue's mark.
    const draft = await waitFor(async () => (await getTask(service.database.db, work.id))?.draft || undefined, 'the machine draft');
    expect(draft.split('\n\n')).toEqual([
      '[00:00:01] Ann: [es] Good morning, everyone.',
      '[00:00:03] [es] JOHN: Where is the station?',
      '[00:00:06] [es] It is near the river, behind the old bridge.',
    ]);
    await translateAndApprove(orderId, draft);

    const vtt = await fetch(await translationUrl('subtitles-vtt'));
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const text = await vtt.text();
    expect(text).toContain('00:00:01.250 --> 00:00:03.480\n<v Ann>[es] Good morning, everyone.');
    const cues = cuesOf(text);
    expect(cues.map((c) => [c.start, c.end])).toEqual(CUES.map((c) => [millis(c.start), millis(c.end)]));
    expect(cues.map((c) => c.text.replace(/<v [^>]+>/, '').replace(/\n/g, ' '))).toEqual([
      '[es] Good morning, everyone.',
      '[es] JOHN: Where is the station?',
      '[es] It is near the river, behind the old bridge.',
    ]);
  });

  it("a document's translation has no times to make subtitles of: srt is not offered", async () => {
    const url = docs.serve('/letter.txt', 'Dear customer, your order is ready.', 'text/plain');
    const { orderId } = await placeOrder(service, { token, path: 'translations', fields: { url, translate_from: 'english', translate_to: 'french' } });
    const file = await fetch(`${service.baseUrl}/api/v4/orders/${orderId}/files/translation?api_token=${token}&format=srt`);
    expect(file.status).toBe(400);
    expect(await file.json()).toMatchObject({ error: 'format: must be one of docx, pdf, text for a translation file, got "srt"' });
  });
});
