// Operation 7: subtitles in another language for a media file, by a subtitler.
import { z } from 'zod';
import { checkLanguagePair, translationParams } from '../params.js';
import { cents, finishedOnlyCallback, perMinute, translationWork } from '../shared.js';
import { defineProduct } from '../types.js';
import { EXAMPLE_FILES } from '../examples.js';

const LABEL = 'subtitles';

const subtitlesRequest = z.strictObject(translationParams(LABEL)).superRefine(checkLanguagePair);

export const subtitles = defineProduct({
  key: 'subtitles',
  label: LABEL,
  path: 'subtitles',
  recordType: 'subtitles',
  languageSet: 'TL',
  request: subtitlesRequest,
  fulfilment: 'operator',
  work: translationWork('transcript', 'minute'),
  creationFields: ['seconds'],
  prices: z.object({ per_minute_cents: cents, review_per_minute_cents: cents, minimum_cents: cents }),
  async measure(request, tools) {
    return { seconds: await tools.mediaSeconds(request.url, 'url'), words: 0 };
  },
  price: (prices, request, measured) =>
    Math.max(prices.minimum_cents, perMinute(measured.seconds, prices.per_minute_cents + (request.additional_review ? prices.review_per_minute_cents : 0))),
  turnaroundHours: (request) => (request.additional_review ? 144 : 120),
  results: () => [{ kind: 'subtitles', field: 'subtitles_url' }],
  recordFields: (params) => ({ translate_from: params.translate_from, translate_to: params.translate_to }),
  callbackFields: (context) => finishedOnlyCallback(context, () => ({ subtitles_url: context.url('subtitles') })),
  example: { url: EXAMPLE_FILES.audio, translate_from: 'english', translate_to: 'french' },
  samples: [
    {
      id: 14,
      status: 'finished',
      priceCents: 2400,
      seconds: 180,
      words: 0,
      params: { translate_from: 'english', translate_to: 'spanish', additional_review: true, comment: 'Sample: product video' },
    },
    {
      id: 9,
      status: 'paid',
      priceCents: 2400,
      seconds: 180,
      words: 0,
      params: { translate_from: 'english', translate_to: 'german', additional_review: false, comment: 'Sample: trailer' },
    },
  ],
});
