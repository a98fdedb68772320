// Hostile result files through the running service (issue 41): a finished order whose transcript
// holds 100,000 marks on one letter, 250,000 joiners, a 5 MB line with no break or a bomb of nested
// bidi controls has a PDF (drawn within the layout's caps, the words around the run still there),
// and meanwhile other orders' files are answered; a rendering that fails is answered 422 naming
// why, and remembered: asking again renders nothing and gets the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { describeNeeding } from '../helpers/legs.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { pdfLines } from '../helpers/pdfReaders.js';
import { AFTER, BEFORE, HOSTILE_TRANSCRIPTS, hostileTranscriptText } from '../helpers/hostileTranscripts.js';
import { documentsRefused } from '../../src/documents/sandbox/index.js';
import { renderingsFailed } from '../../src/metrics.js';

const ORDINARY = 'Speaker 1: An ordinary paragraph of an ordinary order.\n\nSpeaker 2: And its answer, in a second paragraph.\n';

/** A finished human transcription whose transcript file is `text`. */
async function finishedOrder(service: TestService, media: MediaServer, token: string, text: string): Promise<number> {
  const { orderId } = await placeOrder(service, { token, fields: englishAudio(media, 20) });
  const done = await service.complete(orderId, 'transcript.txt', text);
  expect(done.body.status).toBe('finished');
  return orderId;
}

describeNeeding('scripts', 'hostile result transcripts: their PDFs are drawn within the caps', () => {
  let service: TestService;
  let media: MediaServer;
  let token: string;
  const fileUrl = (id: number, format: string) => `/api/v4/orders/${id}/files/transcription?api_token=${token}&format=${format}`;

  beforeAll(async () => {
    [service, media] = await Promise.all([startService(), startMediaServer()]);
    ({ token } = await service.createAccount(100));
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  it.each(HOSTILE_TRANSCRIPTS.map((h) => [h.name, h] as const))(
    '%s: the PDF answers 200 and reads back with the words around the run',
    async (_name, hostile) => {
      const id = await finishedOrder(service, media, token, hostileTranscriptText(hostile));
      const res = await service.get(fileUrl(id, 'pdf'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const text = (await pdfLines(res.bytes)).join(' ');
      expect(text).toContain(`Speaker 1: ${BEFORE}`);
      expect(text.replace(/\s+/g, ' ')).toContain(AFTER);
      // What was left out is logged with the order.
      const dropped = service.logged.find(
        (l) => l.message === 'characters past the PDF layout caps left out' && (l.meta as { orderId: number }).orderId === id,
      );
      expect((dropped?.meta as { count: number }).count).toBeGreaterThan(0);
    },
  );

  it("while a hostile PDF renders, another order's DOCX and PDF are answered (not 503)", async () => {
    const hostileId = await finishedOrder(service, media, token, hostileTranscriptText(HOSTILE_TRANSCRIPTS.find((h) => /5 MB/.test(h.name))!));
    const ordinaryId = await finishedOrder(service, media, token, ORDINARY);
    // Asked first, so its rendering is under way when the others are asked.
    const hostile = service.get(fileUrl(hostileId, 'pdf'));
    const [docx, pdf] = await Promise.all([service.get(fileUrl(ordinaryId, 'docx')), service.get(fileUrl(ordinaryId, 'pdf'))]);
    expect(docx.status).toBe(200);
    expect((await mammoth.extractRawText({ buffer: docx.bytes })).value).toContain('An ordinary paragraph of an ordinary order.');
    expect(pdf.status).toBe(200);
    expect((await pdfLines(pdf.bytes)).join(' ')).toContain('And its answer, in a second paragraph.');
    expect((await hostile).status).toBe(200);
  });
});

describe('a rendering that fails', () => {
  let service: TestService;
  let media: MediaServer;
  let token: string;

  beforeAll(async () => {
    // A result file's rendering gets 0.2 s of CPU: the PDF of a long transcript takes seconds.
    [service, media] = await Promise.all([startService({ sandbox: { renderCpuMs: 200 } }), startMediaServer()]);
    ({ token } = await service.createAccount(100));
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  const refusedForTime = async () => (await documentsRefused.get()).values.find((v) => v.labels.reason === 'time')?.value ?? 0;
  const failedForTime = async () => (await renderingsFailed.get()).values.find((v) => v.labels.format === 'pdf' && v.labels.reason === 'time')?.value ?? 0;

  it('is answered 422 naming the format and why, and asked again is answered the same without rendering again', async () => {
    const long = Array.from(
      { length: 2_000 },
      (_, i) => `Speaker ${(i % 3) + 1}: Paragraph ${i} of a long meeting, where everyone says a little more than needed.`,
    );
    const id = await finishedOrder(service, media, token, `${long.join('\n\n')}\n`);
    const url = `/api/v4/orders/${id}/files/transcription?api_token=${token}&format=pdf`;
    const [refused, failed] = [await refusedForTime(), await failedForTime()];

    // Two at once: one rendering.
    const first = await Promise.all([service.get(url), service.get(url)]);
    for (const res of first) {
      expect(res.status).toBe(422);
      // No rendering's ETag (Express gives any answer a weak one of its body).
      expect(res.headers.get('etag') ?? '').not.toMatch(/^"[\w-]{32}"$/);
      expect(res.body.status).toBe('error');
      expect(res.body.error).toMatch(/^format: the transcription file cannot be rendered as pdf: .*too long.*; ask for another format \(.*docx.*\)$/);
    }
    expect(first[1].body).toEqual(first[0].body);
    // Once more: the same answer, remembered.
    const again = await service.get(url);
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first[0].body);

    // One rendering was stopped at its limit, one failure counted and logged, whatever was asked.
    expect(await refusedForTime()).toBe(refused + 1);
    expect(await failedForTime()).toBe(failed + 1);
    expect(service.logged.filter((l) => l.message === 'a result file could not be rendered' && (l.meta as { orderId: number }).orderId === id)).toHaveLength(1);
  });
});
