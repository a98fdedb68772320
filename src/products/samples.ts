// Sample orders answered to `mode=test` on operations 9 and 10 (spec, listing rule 1): every
// product, every state an order can be in, a finished one of each product; and the sample
// transcript their result files are rendered from, so a client can try the whole read path.
import type { Transcript } from '../domain/transcript.js';
import type { RecordSource } from './records.js';

const day = (d: number, h = 10) => new Date(Date.UTC(2026, 0, d, h));
const sample = (
  id: number,
  product: string,
  status: string,
  priceCents: number,
  seconds: number,
  words: number,
  params: Record<string, unknown>,
  finished: boolean,
  retranscribedOrderId: number | null = null,
): RecordSource => ({
  id,
  product,
  status,
  priceCents,
  seconds,
  words,
  params,
  retranscribedOrderId,
  paidAt: day(id),
  deliveryEstimate: day(id + 5),
  finishedAt: finished ? day(id + 3, 16) : null,
});
const transcript = { text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '5_days', number_of_speakers: '1_or_2' };

export const SAMPLE_ORDERS: readonly RecordSource[] = [
  sample(
    14,
    'subtitles',
    'finished',
    2400,
    180,
    0,
    { translate_from: 'english', translate_to: 'spanish', additional_review: true, comment: 'Sample: product video' },
    true,
  ),
  sample(13, 'transcription_proofreading', 'finished', 400, 240, 400, { language: 'english', ...transcript, captions: true, auto_retranscribe: false }, true),
  sample(12, 'ai_transcription', 'finished', 75, 150, 0, { language: 'english' }, true),
  // The human transcription that replaced proofreading order 5.
  sample(11, 'transcription', 'paid', 500, 240, 0, { language: 'english', ...transcript }, false),
  sample(10, 'human_ocr', 'finished', 250, 0, 480, { language: 'english' }, true),
  sample(
    9,
    'subtitles',
    'paid',
    2400,
    180,
    0,
    { translate_from: 'english', translate_to: 'german', additional_review: false, comment: 'Sample: trailer' },
    false,
  ),
  sample(8, 'captions', 'finished', 900, 360, 0, { language: 'english', ...transcript, comment: 'Sample: webinar' }, true),
  sample(7, 'translation', 'finished', 1200, 0, 120, { translate_from: 'english', translate_to: 'french', additional_review: false, source: 'document' }, true),
  sample(6, 'forced_alignment', 'finished', 25, 95, 210, { language: 'spanish' }, true),
  sample(
    5,
    'transcription_proofreading',
    'retranscribed',
    0,
    240,
    400,
    { language: 'english', ...transcript, captions: false, auto_retranscribe: true },
    false,
    11,
  ),
  sample(4, 'ai_transcription', 'refunded', 0, 45, 0, { language: 'french' }, false),
  sample(3, 'transcription', 'finished', 750, 300, 0, { language: 'english', ...transcript, comment: 'Sample: interview, two speakers' }, true),
  sample(
    2,
    'transcription',
    'paid',
    1800,
    600,
    0,
    { language: 'french', ...transcript, text_format: 'full_verbatim', timestamping: 'every_30_seconds', turnaround_time: '3_days' },
    false,
  ),
  sample(1, 'transcription', 'canceled', 125, 60, 0, { language: 'german', ...transcript, number_of_speakers: '3_or_more' }, false),
];

/** A sample order by id, or undefined. */
export const sampleOrderById = (id: number): RecordSource | undefined => SAMPLE_ORDERS.find((o) => o.id === id);

/** The ids of the sample orders, for messages: "1–14". */
export const SAMPLE_ID_RANGE = `${Math.min(...SAMPLE_ORDERS.map((o) => o.id))}–${Math.max(...SAMPLE_ORDERS.map((o) => o.id))}`;

const words = (text: string, start: number, end: number) => {
  const list = text.split(' ');
  const step = (end - start) / list.length;
  return list.map((w, i) => ({ text: w, start: +(start + i * step).toFixed(2), end: +(start + (i + 1) * step).toFixed(2) }));
};

/** What every sample result file holds, rendered in the format asked for (speakers, times, word timings). */
export const SAMPLE_TRANSCRIPT: Transcript = {
  segments: [
    {
      speaker: 'Ann',
      start: 0,
      end: 4.2,
      text: 'Welcome to the sample order of this service.',
      words: words('Welcome to the sample order of this service.', 0, 4.2),
    },
    {
      speaker: 'Bo',
      start: 4.6,
      end: 9.8,
      text: 'Every result URL of a sample downloads a file like this one.',
      words: words('Every result URL of a sample downloads a file like this one.', 4.6, 9.8),
    },
  ],
};
