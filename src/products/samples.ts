// Sample orders answered to `mode=test` on operations 9 and 10 (spec, listing rule 1): one of
// each product, in the states an order can be in.
import type { RecordSource } from './records.js';

const day = (d: number, h = 10) => new Date(Date.UTC(2026, 0, d, h));
const sample = (id: number, product: string, status: string, priceCents: number, seconds: number, words: number,
  params: Record<string, unknown>, finished: boolean, retranscribedOrderId: number | null = null): RecordSource => ({
  id, product, status, priceCents, seconds, words, params, retranscribedOrderId,
  paidAt: day(id), deliveryEstimate: day(id + 5), finishedAt: finished ? day(id + 3, 16) : null,
});
const transcript = { text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '5_days', number_of_speakers: '1_or_2' };

export const SAMPLE_ORDERS: readonly RecordSource[] = [
  // The human transcription that replaced proofreading order 5.
  sample(11, 'transcription', 'paid', 500, 240, 0, { language: 'english', ...transcript }, false),
  sample(10, 'human_ocr', 'finished', 250, 0, 480, { language: 'english' }, true),
  sample(9, 'subtitles', 'paid', 2400, 180, 0, { translate_from: 'english', translate_to: 'german', additional_review: false, comment: 'Sample: trailer' }, false),
  sample(8, 'captions', 'finished', 900, 360, 0, { language: 'english', ...transcript, comment: 'Sample: webinar' }, true),
  sample(7, 'translation', 'finished', 1200, 0, 120, { translate_from: 'english', translate_to: 'french', additional_review: false, source: 'document' }, true),
  sample(6, 'forced_alignment', 'finished', 25, 95, 210, { language: 'spanish' }, true),
  sample(5, 'transcription_proofreading', 'retranscribed', 0, 240, 400,
    { language: 'english', ...transcript, captions: false, auto_retranscribe: true }, false, 11),
  sample(4, 'ai_transcription', 'refunded', 0, 45, 0, { language: 'french' }, false),
  sample(3, 'transcription', 'finished', 750, 300, 0, { language: 'english', ...transcript, comment: 'Sample: interview, two speakers' }, true),
  sample(2, 'transcription', 'paid', 1800, 600, 0, { language: 'french', ...transcript, text_format: 'full_verbatim', timestamping: 'every_30_seconds', turnaround_time: '3_days' }, false),
  sample(1, 'transcription', 'canceled', 125, 60, 0, { language: 'german', ...transcript, number_of_speakers: '3_or_more' }, false),
];
