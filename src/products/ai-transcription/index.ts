// Operation 2: AI transcription and captions of an audio file, by a speech engine. Subscription
// minutes pay first, the wallet the rest (docs/decisions/ai-subscription-minutes.md).
import { z } from 'zod';
import { callbackUrlParam, httpUrl, languageParam, vocabularyParam } from '../params.js';
import { cents, perMinute, statusCallback } from '../shared.js';
import { defineProduct } from '../types.js';
import { EXAMPLE_FILES } from '../examples.js';

const LABEL = 'AI transcription';

const aiRequest = z.strictObject({
  url: httpUrl,
  language: languageParam('AI', LABEL),
  vocabulary: vocabularyParam,
  callback_url: callbackUrlParam,
});

const aiPrices = z.object({ per_minute_cents: cents, minimum_cents: cents });

/** An engine's results are there within the hour for any file the service accepts. */
const DELIVERY_HOURS = 1;

export const aiTranscription = defineProduct({
  key: 'ai_transcription',
  label: LABEL,
  path: 'ai-transcriptions',
  recordType: 'transcriptions',
  languageSet: 'AI',
  request: aiRequest,
  fulfilment: 'engine',
  engineJob: { task: 'transcribe', audioParam: 'url' },
  // Speech in another language than the ordered one, with no machine translation for the pair: a
  // translator hears it and translates the engine's transcript (kept as the order's source). Speech
  // in the ordered language whose transcript the gate held back: a transcriber corrects it.
  work: {
    applies: (p) => typeof p.spoken_language === 'string',
    skill: (p) => (p.spoken_language === p.language ? `transcription:${p.language}` : `translation:${String(p.spoken_language)}>${p.language}`),
    reviewSkill: (p) => `review:${p.language}`,
    editor: 'transcript',
    mediaParam: 'url',
    sourceFile: 'source',
    draft: 'source',
    pay: 'minute',
    rules: () => ({ timestamping: 'not_required' }),
  },
  creationFields: ['seconds', 'ai_transcripts_minutes_left'],
  prices: aiPrices,
  async measure(request, tools) {
    return { seconds: await tools.mediaSeconds(request.url, 'url'), words: 0 };
  },
  price: (prices, _request, measured) => Math.max(prices.minimum_cents, perMinute(measured.seconds, prices.per_minute_cents)),
  subscriptionRate: (prices) => prices.per_minute_cents,
  turnaroundHours: () => DELIVERY_HOURS,
  results: () => [
    { kind: 'transcription', field: 'transcription_url' },
    { kind: 'captions', field: 'captions_url' },
  ],
  recordFields: (params) => ({ language: params.language }),
  callbackFields: (context) =>
    statusCallback(context, (finished) => ({
      language: context.params.language,
      transcription_url: finished ? context.url('transcription') : '',
      captions_url: finished ? context.url('captions') : '',
    })),
  example: { url: EXAMPLE_FILES.audio, language: 'english' },
  samples: [
    { id: 12, status: 'finished', priceCents: 75, seconds: 150, words: 0, params: { language: 'english' } },
    { id: 4, status: 'refunded', priceCents: 0, seconds: 45, words: 0, params: { language: 'french' } },
  ],
});
