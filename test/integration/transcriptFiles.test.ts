// Transcripts are recognised by what they are, not by the URL's extension: served without an
// extension, with a wrong one, or with a misleading Content-Type, each accepted format is read or
// refused with a clear message; and every output format of a finished transcription is accepted
// back as a proofreading transcript, its text intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { describeNeeding } from '../helpers/legs.js';
import { convert } from '../helpers/libreoffice.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { docxOf, pdfOf, rtfOf, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { documentFileName } from '../../src/documents/measure.js';
import { RESULT_KIND_DEFINITIONS } from '../../src/domain/resultKinds.js';
import { WHISPERX_TRANSCRIPT } from '../helpers/foreignJson.js';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { orders } from '../../src/db/schema.js';
import { localFileStore } from '../../src/storage/fileStore.js';

let service: TestService;
let media: MediaServer;
let docs: DocumentServer;
let token: string;
beforeAll(async () => {
  [service, media, docs] = await Promise.all([startService(), startMediaServer(), startDocumentServer()]);
  ({ token } = await service.createAccount(200));
});
afterAll(async () => {
  await Promise.all([service?.close(), media?.close(), docs?.close()]);
});

const SEGMENTS = [
  { speaker: 'Ann', text: 'Good morning, and thank you for coming.' },
  { speaker: 'Bo', text: 'Happy to be here today.' },
];
const PLAIN = SEGMENTS.map((s) => `${s.speaker}: ${s.text}`).join('\n\n');

/** One transcript in every format proofreading accepts. */
async function transcripts(): Promise<Array<[string, Buffer]>> {
  return [
    ['txt', Buffer.from(PLAIN)],
    ['json', Buffer.from(JSON.stringify(SEGMENTS))],
    ['docx', await docxOf(PLAIN.split('\n\n'))],
    ['pdf', await pdfOf([PLAIN.split('\n\n')])],
    ['rtf', Buffer.from(rtfOf(PLAIN))],
    ['html', Buffer.from(`<!DOCTYPE html><html><body>${SEGMENTS.map((s) => `<p><strong>${s.speaker}:</strong> ${s.text}</p>`).join('')}</body></html>`)],
  ];
}

// Raw, not placeOrder: a transcript may be read (200) or refused, and a refusal's text is checked.
const quote = (path: string, transcriptUrl: string) =>
  service.post(`/api/v4/${path}`, {
    api_token: token,
    mode: 'test',
    audio_url: media.audio(60),
    transcription_url: transcriptUrl,
    language: 'english',
  });

describe.each([['transcription-proofreadings'], ['forced-alignments']])('%s: transcripts recognised by what they are', (path) => {
  it('reads each format served without an extension, with a wrong one, or with a misleading type, or says clearly why not', async () => {
    for (const [format, bytes] of await transcripts()) {
      if (path === 'forced-alignments' && format === 'json') continue; // alignment takes no JSON transcript
      const variants: Array<[string, string, string | undefined]> = [
        ['no extension, no type', `/${path}/${format}/t1`, undefined],
        ['no extension, application/octet-stream', `/${path}/${format}/t2`, 'application/octet-stream'],
        ['a wrong extension', `/${path}/${format}/t3.${format === 'pdf' ? 'docx' : 'pdf'}`, undefined],
        [
          'a misleading Content-Type',
          `/${path}/${format}/t4`,
          format === 'txt' || format === 'json' || format === 'html' ? 'application/msword' : 'text/plain',
        ],
      ];
      for (const [how, at, type] of variants) {
        const res = await quote(path, docs.serve(at, bytes, type));
        if (res.status === 200) continue;
        expect(res.status, `${format}, ${how}`).toBe(400);
        expect(res.body.error, `${format}, ${how}`).toMatch(/^transcription_url: (cannot read|a .* is not accepted here)/);
        // A binary format, or text named for what it is, is always read.
        expect(['docx', 'pdf', 'rtf'].includes(format) || type === undefined, `${format}, ${how}: ${res.body.error}`).toBe(false);
      }
    }
  });
});

describe('every output format of a finished transcription, back as a proofreading transcript', () => {
  it('is accepted, and its text survives', async () => {
    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media) });
    expect((await service.complete(orderId, 'transcript.json', JSON.stringify(SEGMENTS))).status).toBe(200);
    for (const format of RESULT_KIND_DEFINITIONS.transcription.formats) {
      const file = await service.get(`/api/v4/orders/${orderId}/files/transcription?api_token=${token}&format=${format}`);
      expect(file.status, format).toBe(200);
      // Served back as signed storage URLs are: no extension, no telling type.
      const url = docs.serve(`/round-trip/${format}`, file.bytes, 'application/octet-stream');
      const res = await quote('transcription-proofreadings', url);
      expect(res.body, format).toMatchObject({ status: 'success', seconds: 60 });
      const read = await service.documentReader.importDocument(file.bytes, documentFileName(file.bytes, undefined, `/round-trip/${format}`));
      const text = read.segments.map((s) => `${s.speaker ?? ''} ${s.text}`).join(' ');
      for (const s of SEGMENTS) {
        expect(text, format).toContain(s.text);
        expect(text, format).toContain(s.speaker);
      }
    }
  });
});

describe('a JSON transcript with fields of its own', () => {
  it('is taken with its text, speakers and times: untimed WhisperX words, `words` as a note and other fields are ignored', async () => {
    const whisperX = WHISPERX_TRANSCRIPT;
    const res = await quote('transcription-proofreadings', docs.serve('/whisperx.json', JSON.stringify(whisperX), 'application/json'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', seconds: 60 });
    const { orderId } = await placeOrder(service, {
      token,
      path: 'transcription-proofreadings',
      fields: {
        audio_url: media.audio(60),
        transcription_url: docs.serve('/whisperx-live.json', JSON.stringify(whisperX), 'application/json'),
        language: 'english',
      },
    });
    // What the order keeps for its proofreader, read as its workers read it: text, speakers and
    // segment times; word times only where every word of a segment is timed (WhisperX left "20"
    // untimed), so no word is placed at a guessed time.
    const [kept] = await service.database.db.select().from(orders).where(eq(orders.id, orderId));
    const file = kept!.inputFiles.transcription!;
    const read = await service.documentReader.importDocument(await localFileStore(join(service.dataDir, 'files')).get(file.key), file.fileName);
    expect(read.segments.map(({ text, speaker, start, end }) => ({ text, speaker, start, end }))).toEqual([
      { text: 'It cost 20 dollars.', speaker: 'SPEAKER_00', start: 0.5, end: 2 },
      { text: 'Fine.', speaker: undefined, start: 2, end: 3 },
      { text: 'Timed.', speaker: undefined, start: 3, end: 4 },
    ]);
    expect(read.segments.map((s) => s.words?.map((w) => [w.text, w.start, w.end]))).toEqual([undefined, undefined, [['Timed.', 3, 4]]]);
  });
});

describeNeeding('libreoffice', 'a Word 97 .doc transcript, recognised by what it is', () => {
  it('is read without an extension, with a wrong one, and with a misleading type', async () => {
    const doc = await convert(await docxOf(PLAIN.split('\n\n')), 'transcript.docx', 'doc:MS Word 97', 'doc');
    for (const [at, type] of [
      ['/doc/t1', undefined],
      ['/doc/t2.pdf', undefined],
      ['/doc/t3', 'text/plain'],
    ] as const) {
      const res = await quote('transcription-proofreadings', docs.serve(at, doc, type));
      expect(res.body, at).toMatchObject({ status: 'success', seconds: 60 });
    }
  });
});
