// Operation 1: human transcription of a media file, fulfilled by a person with order-ops.
import { z } from 'zod';
import { booleanParam, checkSpan, transcriptionParams } from '../params.js';
import {
  cents,
  finishedOnlyCallback,
  mediaSpan,
  perMinute,
  perMinuteByTurnaround,
  settleTurnaround,
  transcriptRecordFields,
  turnaroundHours,
  transcriptWork,
} from '../shared.js';
import { defineProduct } from '../types.js';
import { EXAMPLE_FILES, SAMPLE_TRANSCRIPT_PARAMS } from '../examples.js';

const LABEL = 'human transcription';

const transcriptionRequest = z
  .strictObject({
    ...transcriptionParams(LABEL),
    strict: booleanParam.default(false),
  })
  .superRefine(checkSpan);

export const transcriptionPrices = z.object({
  per_minute_cents: perMinuteByTurnaround,
  surcharge_per_minute_cents: z.object({ full_verbatim: cents, timestamping: cents, '3_or_more_speakers': cents }),
  minimum_cents: cents,
});

type TranscriptionLike = Pick<z.infer<typeof transcriptionRequest>, 'turnaround_time' | 'text_format' | 'timestamping' | 'number_of_speakers'>;

/** The human transcription rate, which captions and the proofreading hand-off use too. */
export function transcriptionPriceCents(prices: z.infer<typeof transcriptionPrices>, request: TranscriptionLike, seconds: number): number {
  let rate = prices.per_minute_cents[request.turnaround_time];
  if (request.text_format === 'full_verbatim') rate += prices.surcharge_per_minute_cents.full_verbatim;
  if (request.timestamping !== 'not_required') rate += prices.surcharge_per_minute_cents.timestamping;
  if (request.number_of_speakers === '3_or_more') rate += prices.surcharge_per_minute_cents['3_or_more_speakers'];
  return Math.max(prices.minimum_cents, perMinute(seconds, rate));
}

// `from` and `till` where given: the span the order covers; `requested_till` where a till past the
// media's end was taken as its end (mediaSpan), so the record says what was asked and what is covered.
export const TRANSCRIPT_RECORD_FIELDS = [
  'language',
  'text_format',
  'timestamping',
  'turnaround_time',
  'number_of_speakers',
  'from',
  'till',
  'requested_till',
] as const;

export const transcription = defineProduct({
  key: 'transcription',
  label: LABEL,
  path: 'transcriptions',
  recordType: 'transcriptions',
  languageSet: 'HT',
  request: transcriptionRequest,
  fulfilment: 'operator',
  work: transcriptWork('url'),
  creationFields: ['seconds'],
  prices: transcriptionPrices,
  settle: (request) => settleTurnaround(request, request.strict),
  async measure(request, tools) {
    return { ...mediaSpan(await tools.mediaSeconds(request.url, 'url'), request), words: 0 };
  },
  price: (prices, request, measured) => transcriptionPriceCents(prices, request, measured.seconds),
  turnaroundHours,
  results: () => [{ kind: 'transcription', field: 'transcription_url' }],
  recordFields: (params) => transcriptRecordFields(params, TRANSCRIPT_RECORD_FIELDS),
  callbackFields: (context) =>
    finishedOnlyCallback(context, () => ({
      transcription_url: context.url('transcription'),
      language: context.params.language,
    })),
  example: { url: EXAMPLE_FILES.audio, language: 'english', turnaround_time: '5_days', text_format: 'clean_verbatim' },
  samples: [
    // The human transcription that replaced proofreading order 5.
    { id: 11, status: 'paid', priceCents: 500, seconds: 240, words: 0, params: { language: 'english', ...SAMPLE_TRANSCRIPT_PARAMS } },
    {
      id: 3,
      status: 'finished',
      priceCents: 750,
      seconds: 300,
      words: 0,
      params: { language: 'english', ...SAMPLE_TRANSCRIPT_PARAMS, comment: 'Sample: interview, two speakers' },
    },
    {
      id: 2,
      status: 'paid',
      priceCents: 1800,
      seconds: 600,
      words: 0,
      params: { language: 'french', ...SAMPLE_TRANSCRIPT_PARAMS, text_format: 'full_verbatim', timestamping: 'every_30_seconds', turnaround_time: '3_days' },
    },
    {
      id: 1,
      status: 'canceled',
      priceCents: 125,
      seconds: 60,
      words: 0,
      params: { language: 'german', ...SAMPLE_TRANSCRIPT_PARAMS, number_of_speakers: '3_or_more' },
    },
  ],
});
