// Operation 3: a person corrects a supplied AI transcript. A transcript too poor to correct is
// refunded, or with auto_retranscribe handed to a new human transcription order (a child workflow).
import { z } from 'zod';
import { booleanParam, callbackUrlParam, commentParam, enumParam, httpUrl, languageParam, vocabularyParam } from '../params.js';
import {
  cents,
  perMinute,
  perMinuteByTurnaround,
  settleTurnaround,
  statusCallback,
  transcriptRecordFields,
  turnaroundHours,
  transcriptWork,
} from '../shared.js';
import { countWords } from '../../documents/measure.js';
import { withoutRefused } from '../../domain/terms.js';
import { defineProduct, type ResultField } from '../types.js';
import { EXAMPLE_FILES, SAMPLE_TRANSCRIPT_PARAMS } from '../examples.js';

const LABEL = 'transcription proofreading';

/** Formats of the supplied transcript (spec, operation 3). */
const PROOFREAD_INPUT_FORMATS = ['doc', 'docx', 'rtf', 'pdf', 'txt', 'json', 'html'] as const;

const proofreadingRequest = z.strictObject({
  audio_url: httpUrl,
  transcription_url: httpUrl,
  language: languageParam('HT', LABEL),
  text_format: enumParam('text_format', 'clean_verbatim'),
  timestamping: enumParam('timestamping', 'not_required'),
  turnaround_time: enumParam('turnaround_time', '5_days'),
  captions: booleanParam.default(false),
  auto_retranscribe: booleanParam.default(false),
  comment: commentParam,
  vocabulary: vocabularyParam,
  callback_url: callbackUrlParam,
});

const proofreadingPrices = z.object({
  per_minute_cents: perMinuteByTurnaround,
  surcharge_per_minute_cents: z.object({ full_verbatim: cents, timestamping: cents, captions: cents }),
  minimum_cents: cents,
});

export const proofreading = defineProduct({
  key: 'transcription_proofreading',
  label: LABEL,
  path: 'transcription-proofreadings',
  recordType: 'transcription_proofreadings',
  languageSet: 'HT',
  request: proofreadingRequest,
  fulfilment: 'proofreading',
  // The proofreader starts from the supplied transcript.
  work: transcriptWork('audio_url', 'source', 'transcription'),
  onReject: (p) => (p.auto_retranscribe ? 'hand_off' : 'refund'),
  // The human transcription of the same audio, with the proofreading order's own choices.
  handOff: {
    to: 'transcription',
    params: (p) => ({
      url: p.audio_url,
      language: p.language,
      text_format: p.text_format,
      timestamping: p.timestamping,
      turnaround_time: p.turnaround_time,
      ...(typeof p.comment === 'string' ? { comment: p.comment } : {}),
      // Parsed as a new order's: an older order's terms without the characters refused since (issue 51).
      ...(Array.isArray(p.vocabulary) && p.vocabulary.length ? { vocabulary: p.vocabulary.map(withoutRefused) } : {}),
    }),
    refundNote: 'the supplied transcript failed the quality check',
  },
  creationFields: ['seconds'],
  prices: proofreadingPrices,
  settle: (request) => settleTurnaround(request, false),
  async measure(request, tools) {
    const seconds = await tools.mediaSeconds(request.audio_url, 'audio_url');
    const file = await tools.fetchFile(request.transcription_url, 'transcription_url');
    const transcript = await tools.readTranscript(file, 'transcription_url', PROOFREAD_INPUT_FORMATS);
    const words = countWords(transcript.segments.map((s) => s.text).join('\n'));
    return { seconds, words, keep: { transcription: file } };
  },
  price(prices, request, measured) {
    let rate = prices.per_minute_cents[request.turnaround_time];
    if (request.text_format === 'full_verbatim') rate += prices.surcharge_per_minute_cents.full_verbatim;
    if (request.timestamping !== 'not_required') rate += prices.surcharge_per_minute_cents.timestamping;
    if (request.captions) rate += prices.surcharge_per_minute_cents.captions;
    return Math.max(prices.minimum_cents, perMinute(measured.seconds, rate));
  },
  turnaroundHours,
  results(params) {
    const fields: ResultField[] = [{ kind: 'proofread_transcription', field: 'proofread_transcription_url' }];
    if (params.captions) fields.push({ kind: 'proofread_captions', field: 'proofread_captions_url' });
    return fields;
  },
  recordFields: (params, order) => ({
    ...transcriptRecordFields(params, ['language', 'text_format', 'timestamping', 'turnaround_time', 'captions', 'auto_retranscribe']),
    was_retranscribed: order.retranscribedOrderId !== null,
    retranscribed_order_id: order.retranscribedOrderId,
  }),
  callbackFields: (context) =>
    statusCallback(context, (finished) => ({
      was_retranscribed: String(context.order.retranscribedOrderId !== null),
      // Multipart has no null: an order that was not handed on sends an empty string.
      retranscribed_order_id: context.order.retranscribedOrderId === null ? '' : String(context.order.retranscribedOrderId),
      proofread_transcription_url: finished ? context.url('proofread_transcription') : '',
      ...(finished && context.params.captions ? { proofread_captions_url: context.url('proofread_captions') } : {}),
    })),
  example: { audio_url: EXAMPLE_FILES.audio, transcription_url: EXAMPLE_FILES.text, language: 'english' },
  samples: [
    {
      id: 13,
      status: 'finished',
      priceCents: 400,
      seconds: 240,
      words: 400,
      params: { language: 'english', ...SAMPLE_TRANSCRIPT_PARAMS, captions: true, auto_retranscribe: false },
    },
    // Its supplied transcript failed the check: retranscribed as order 11.
    {
      id: 5,
      status: 'retranscribed',
      priceCents: 0,
      seconds: 240,
      words: 400,
      params: { language: 'english', ...SAMPLE_TRANSCRIPT_PARAMS, captions: false, auto_retranscribe: true },
      retranscribedOrderId: 11,
    },
  ],
});
