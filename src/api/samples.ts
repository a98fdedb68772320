// Fixed sample orders answered to `mode=test` on operations 9 and 10 (spec, listing rule 1).
import type { RecordSource } from '../domain/records.js';

export const SAMPLE_ORDERS: readonly RecordSource[] = [
  {
    id: 3, product: 'transcription', status: 'finished', priceCents: 750, seconds: 300, words: 0,
    params: { language: 'english', comment: 'Sample: interview, two speakers', text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '5_days', number_of_speakers: '1_or_2' },
    paidAt: new Date('2026-01-05T10:00:00Z'), deliveryEstimate: new Date('2026-01-10T10:00:00Z'), finishedAt: new Date('2026-01-08T16:30:00Z'),
  },
  {
    id: 2, product: 'transcription', status: 'paid', priceCents: 1800, seconds: 600, words: 0,
    params: { language: 'french', comment: 'Sample: lecture', text_format: 'full_verbatim', timestamping: 'every_30_seconds', turnaround_time: '3_days', number_of_speakers: '1_or_2' },
    paidAt: new Date('2026-01-04T09:00:00Z'), deliveryEstimate: new Date('2026-01-07T09:00:00Z'), finishedAt: null,
  },
  {
    id: 1, product: 'transcription', status: 'canceled', priceCents: 125, seconds: 60, words: 0,
    params: { language: 'german', comment: '', text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '5_days', number_of_speakers: '3_or_more' },
    paidAt: new Date('2026-01-03T08:00:00Z'), deliveryEstimate: new Date('2026-01-08T08:00:00Z'), finishedAt: null,
  },
];
