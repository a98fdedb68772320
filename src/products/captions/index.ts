// Operation 6: captions (and the transcription they come from) of a media file, by a person.
// The same parameters as human transcription except `strict`: an unavailable turnaround is raised.
import { z } from 'zod';
import { checkSpan, transcriptionParams } from '../params.js';
import { finishedOnlyCallback, mediaSpan, settleTurnaround, transcriptRecordFields, turnaroundHours, transcriptWork } from '../shared.js';
import { defineProduct } from '../types.js';
import { EXAMPLE_FILES, SAMPLE_TRANSCRIPT_PARAMS } from '../examples.js';
import { TRANSCRIPT_RECORD_FIELDS, transcriptionPriceCents, transcriptionPrices } from '../transcription/index.js';

const LABEL = 'captions';

const captionsRequest = z.strictObject(transcriptionParams(LABEL)).superRefine(checkSpan);

export const captions = defineProduct({
  key: 'captions',
  label: LABEL,
  path: 'captions',
  recordType: 'captions',
  languageSet: 'HT',
  request: captionsRequest,
  fulfilment: 'operator',
  // People type the words; the aligner times them into cues.
  // Captions are typed without times: the aligner times the approved words.
  work: { ...transcriptWork('url'), stages: () => ['work', 'review', 'aligner_timing'] },
  creationFields: ['seconds'],
  // Priced like human transcription, with rates of its own.
  prices: transcriptionPrices,
  settle: (request) => settleTurnaround(request, false),
  async measure(request, tools) {
    return { ...mediaSpan(await tools.mediaSeconds(request.url, 'url'), request), words: 0 };
  },
  price: (prices, request, measured) => transcriptionPriceCents(prices, request, measured.seconds),
  turnaroundHours,
  results: () => [
    { kind: 'captions', field: 'captions_url' },
    { kind: 'transcription', field: 'transcription_url' },
  ],
  recordFields: (params) => transcriptRecordFields(params, TRANSCRIPT_RECORD_FIELDS),
  callbackFields: (context) =>
    finishedOnlyCallback(context, () => ({
      captions_url: context.url('captions'),
      transcription_url: context.url('transcription'),
      language: context.params.language,
    })),
  example: { url: EXAMPLE_FILES.audio, language: 'english' },
  samples: [
    {
      id: 8,
      status: 'finished',
      priceCents: 900,
      seconds: 360,
      words: 0,
      params: { language: 'english', ...SAMPLE_TRANSCRIPT_PARAMS, comment: 'Sample: webinar' },
    },
  ],
});
