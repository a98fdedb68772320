// How each product measures what it is priced by, and refuses what it cannot use, naming the
// field: transcripts read at order time, words counted in documents, scans estimated, the
// one-hour limit of forced alignment, OCR quotes that leave nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { blankPdf, docxOf, pdfOf, pngImage, rtfOf, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { accounts, ledgerEntries, orders } from '../../src/db/schema.js';
import { odtOf } from '../helpers/hostileFiles.js';

let service: TestService;
let media: MediaServer;
let docs: DocumentServer;
let receiver: CallbackReceiver;
let token: string;
let accountId: number;
beforeAll(async () => {
  [service, media, docs, receiver] = await Promise.all([startService(), startMediaServer(), startDocumentServer(), startCallbackReceiver()]);
  ({ token, accountId } = await service.createAccount(500));
});
afterAll(async () => {
  await Promise.all([service?.close(), media?.close(), docs?.close(), receiver?.close()]);
});

// Raw, not placeOrder: the tests below read refusal texts as well as quotes.
const quote = (path: string, fields: Record<string, unknown>) => service.post(`/api/v4/${path}`, { api_token: token, mode: 'test', ...fields });

describe('translation', () => {
  const pair = { translate_from: 'english', translate_to: 'french' };

  it.each([
    ['docx', () => docxOf(['One two three.', 'Four five six seven.']), 7],
    ['pdf', () => pdfOf([['One two three four.'], ['Five six.']]), 6],
    ['rtf', async () => rtfOf('One two three four five.'), 5],
    ['txt', async () => 'Eins zwei drei vier fünf sechs sieben acht.', 8],
    // A web page: its visible text, nothing of its head, scripts or comments.
    [
      'html',
      async () =>
        '<!DOCTYPE html><html><head><title>Not this</title><script>nor this</script></head><body><!-- nor --><p>Un deux trois.</p><p>Quatre cinq.</p></body></html>',
      5,
    ],
    [
      'odt',
      async () => odtOf('<text:h>Un deux</text:h><text:p>trois<text:s/>quatre<office:annotation><text:p>not counted</text:p></office:annotation></text:p>'),
      4,
    ],
    // Subtitles: the cue texts, not the numbers, times or voice names.
    ['srt', async () => '1\n00:00:01,000 --> 00:00:02,500\nUn deux trois.\n\n2\n00:00:03,000 --> 00:00:04,000\nQuatre\ncinq.\n', 5],
    ['vtt', async () => 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<v Ann Lee>Un deux.\n\nnote\n00:00:03.000 --> 00:00:04.000\n<i>Trois</i> quatre.\n', 4],
  ] as Array<[string, () => Promise<Buffer | string>, number]>)('counts the words of a %s document; seconds are 0', async (ext, make, words) => {
    // Served with no telling name (a text file's type at most): recognised by what the bytes are.
    const url = docs.serve(
      `/doc-${ext}${['txt', 'docx', 'pdf', 'rtf'].includes(ext) ? `.${ext}` : ''}`,
      await make(),
      ext === 'txt' ? 'text/plain' : undefined,
    );
    const res = await quote('translations', { url, ...pair });
    expect(res.body).toMatchObject({ status: 'success', words, seconds: 0, order_total: 5 }); // under the $5 minimum
  });

  it('prices a long document by its words, with the review on top', async () => {
    const url = docs.serve('/long.txt', 'word '.repeat(2000), 'text/plain');
    expect((await quote('translations', { url, ...pair })).body).toMatchObject({ words: 2000, order_total: 200 });
    expect((await quote('translations', { url, ...pair, additional_review: true })).body).toMatchObject({ words: 2000, order_total: 260 });
  });

  it('measures a media file in seconds, words 0', async () => {
    expect((await quote('translations', { url: media.audio(120), ...pair })).body).toMatchObject({ seconds: 120, words: 0, order_total: 14 });
  });

  it('refuses an image, a file that cannot be fetched, and the same language twice', async () => {
    const image = docs.serve('/photo.png', pngImage());
    expect((await quote('translations', { url: image, ...pair })).body.error).toBe(
      'url: translation takes a document (txt, docx, odt, doc, rtf, pdf, an HTML page, or SRT or WebVTT subtitles) or an audio or video file',
    );
    expect((await quote('translations', { url: `${docs.url}/missing.pdf`, ...pair })).body.error).toBe('url: the file could not be fetched');
    expect((await quote('subtitles', { url: media.audio(10), translate_from: 'german', translate_to: 'german' })).body.error).toBe(
      'translate_to: must differ from translate_from (both are german)',
    );
  });
});

describe('transcripts supplied with the order', () => {
  it('proofreading reads the transcript at order time and refuses an unreadable one by field', async () => {
    const good = docs.serve('/t.json', JSON.stringify([{ text: 'Hello there.', speaker: 'Ann', start: 0, end: 2 }]), 'application/json');
    expect((await quote('transcription-proofreadings', { audio_url: media.audio(60), transcription_url: good, language: 'english' })).body).toMatchObject({
      status: 'success',
      seconds: 60,
    });
    const broken = docs.serve('/broken.docx', 'PK\x03\x04 word/ not really a zip');
    const res = await quote('transcription-proofreadings', { audio_url: media.audio(60), transcription_url: broken, language: 'english' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^transcription_url: cannot read document\.docx: /);
    const image = docs.serve('/t.png', pngImage());
    expect((await quote('transcription-proofreadings', { audio_url: media.audio(60), transcription_url: image, language: 'english' })).body.error).toBe(
      'transcription_url: a .png file is not accepted here (accepted: doc, docx, rtf, pdf, txt, json, html)',
    );
  });

  it('forced alignment takes at most an hour of audio, and no JSON transcript', async () => {
    const text = docs.serve('/words.txt', 'Some words.', 'text/plain');
    expect((await quote('forced-alignments', { audio_url: media.audio(3600), transcription_url: text, language: 'french' })).body).toMatchObject({
      status: 'success',
      seconds: 3600,
    });
    const long = await quote('forced-alignments', { audio_url: media.audio(3601), transcription_url: text, language: 'french' });
    expect(long).toMatchObject({
      status: 400,
      body: { error: 'audio_url: the audio is 3601 seconds long; forced alignment takes at most 3600 seconds (1 hour)' },
    });
    const json = docs.serve('/w.json', JSON.stringify({ text: 'Some words.' }), 'application/json');
    expect((await quote('forced-alignments', { audio_url: media.audio(60), transcription_url: json, language: 'french' })).body.error).toMatch(
      /^transcription_url: a \.(json|txt) file is not accepted here/,
    );
  });
});

describe('human OCR', () => {
  it.each([
    ['a docx, counted', () => docxOf(['Typed words in a document, nine of them here.']), 9],
    ['a scanned pdf of two pages, estimated', () => blankPdf(2), 500],
    ['a photo, one page estimated', async () => pngImage(), 250],
  ] as const)('prices %s', async (_what, make, words) => {
    const url = docs.serve(`/ocr-${words}`, await make());
    const res = await quote('human-ocr', { url, language: 'english' });
    expect(Object.keys(res.body).sort()).toEqual(['delivery_estimate', 'in_wallet', 'mode', 'order_total', 'status', 'words']);
    expect(res.body.words).toBe(words);
  });

  it('in test mode leaves no order, no callback and the wallet as it was', async () => {
    const before = await service.database.db.select().from(accounts).where(eq(accounts.id, accountId));
    const res = await quote('human-ocr', { url: docs.serve('/scan-test.pdf', await blankPdf(1)), language: 'english', callback_url: receiver.url });
    expect(res.body).toMatchObject({ mode: 'test', status: 'success', words: 250 });
    expect(res.body).not.toHaveProperty('order_id');
    expect(await service.database.db.select().from(orders).where(eq(orders.accountId, accountId))).toEqual([]);
    expect(await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId))).toHaveLength(1);
    expect(await service.database.db.select().from(accounts).where(eq(accounts.id, accountId))).toEqual(before);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toEqual([]);
  });

  it('refuses a file that is neither a document nor an image', async () => {
    expect((await quote('human-ocr', { url: media.audio(5), language: 'english' })).body.error).toBe(
      'url: human OCR takes a DOCX or PDF document or an image (PNG, JPEG, GIF, TIFF, WebP or BMP)',
    );
  });
});

describe('turnaround by language for captions and proofreading', () => {
  it('raises an unavailable turnaround to the nearest one the language accepts', async () => {
    const captions = await quote('captions', { url: media.audio(60), language: 'greek', turnaround_time: '1_days' });
    const inFiveDays = Date.now() + 120 * 3600_000;
    expect(Math.abs(Date.parse(`${captions.body.delivery_estimate}Z`) - inFiveDays)).toBeLessThan(60_000);
    // strict is a parameter of other products: ignored here, so the turnaround is still raised.
    const strict = await quote('captions', { url: media.audio(60), language: 'greek', turnaround_time: '1_days', strict: 'true' });
    expect(strict.body).toMatchObject({ status: 'success', order_total: captions.body.order_total });
  });
});
