// Operation 4: the words of a supplied transcript aligned to the audio, by an alignment engine.
import { z } from 'zod';
import { RequestError } from '../../contracts/failures.js';
import { callbackUrlParam, httpUrl, languageParam, vocabularyParam } from '../params.js';
import { cents, perMinute, statusCallback } from '../shared.js';
import { countWords } from '../../documents/measure.js';
import { defineProduct } from '../types.js';
import { EXAMPLE_FILES } from '../examples.js';

const LABEL = 'forced alignment';

/** Spec, Limits 1. */
const MAX_ALIGNMENT_SECONDS = 3600;
/** Formats of the supplied transcript (spec, operation 4). */
const ALIGNMENT_INPUT_FORMATS = ['doc', 'docx', 'rtf', 'pdf', 'txt', 'html'] as const;

const alignmentRequest = z.strictObject({
  audio_url: httpUrl,
  transcription_url: httpUrl,
  language: languageParam('FA', LABEL),
  vocabulary: vocabularyParam,
  callback_url: callbackUrlParam,
});

export const forcedAlignment = defineProduct({
  key: 'forced_alignment',
  label: LABEL,
  path: 'forced-alignments',
  recordType: 'forced_alignments',
  languageSet: 'FA',
  request: alignmentRequest,
  fulfilment: 'engine',
  engineJob: { task: 'align', audioParam: 'audio_url', textInput: 'transcription' },
  creationFields: ['seconds'],
  prices: z.object({ per_minute_cents: cents, minimum_cents: cents }),
  async measure(request, tools) {
    const seconds = await tools.mediaSeconds(request.audio_url, 'audio_url');
    if (seconds > MAX_ALIGNMENT_SECONDS) {
      throw new RequestError(`audio_url: the audio is ${seconds} seconds long; forced alignment takes at most ${MAX_ALIGNMENT_SECONDS} seconds (1 hour)`);
    }
    const file = await tools.fetchFile(request.transcription_url, 'transcription_url');
    const transcript = await tools.readTranscript(file, 'transcription_url', ALIGNMENT_INPUT_FORMATS);
    const words = countWords(transcript.segments.map((s) => s.text).join('\n'));
    return { seconds, words, keep: { transcription: file } };
  },
  price: (prices, _request, measured) => Math.max(prices.minimum_cents, perMinute(measured.seconds, prices.per_minute_cents)),
  turnaroundHours: () => 1,
  results: () => [{ kind: 'forced_alignment', field: 'forced_alignment_transcription_url' }],
  recordFields: (params) => ({ language: params.language }),
  callbackFields: (context) =>
    statusCallback(context, (finished) => ({
      language: context.params.language,
      forced_alignment_transcription_url: finished ? context.url('forced_alignment') : '',
    })),
  example: { audio_url: EXAMPLE_FILES.audio, transcription_url: EXAMPLE_FILES.text, language: 'english' },
  samples: [{ id: 6, status: 'finished', priceCents: 25, seconds: 95, words: 210, params: { language: 'spanish' } }],
});
