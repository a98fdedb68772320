// Operation 5: translation of a document (priced by its words) or of a media file's speech
// (priced by its minutes), by a translator. A subtitle file (SRT, WebVTT) is translated cue by cue
// and delivered as subtitles again, its cues' times kept.
import { z } from 'zod';
import { RequestError } from '../../contracts/failures.js';
import { countWords } from '../../documents/measure.js';
import { DOCUMENT_FORMATS, SUBTITLE_FORMATS } from '../../domain/resultKinds.js';
import { checkLanguagePair, translationParams } from '../params.js';
import { cents, finishedOnlyCallback, perMinute, perThousandWords, translationWork } from '../shared.js';
import { defineProduct, type FetchedFile, type Measured, type MeasureTools } from '../types.js';
import { EXAMPLE_FILES } from '../examples.js';

const LABEL = 'translation';

const translationRequest = z.strictObject(translationParams(LABEL)).superRefine(checkLanguagePair);

const translationPrices = z.object({
  per_1000_words_cents: cents,
  review_per_1000_words_cents: cents,
  media_per_minute_cents: cents,
  media_review_per_minute_cents: cents,
  minimum_cents: cents,
});

type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];
const subtitleFormatOf = (fileName: string) => SUBTITLE_FORMATS.find((f) => fileName.endsWith(`.${f}`));

/** A subtitle file's words are its cue texts' (not its voice names); its cues are kept in the order's plan. */
async function measureSubtitles(file: FetchedFile, format: SubtitleFormat, tools: MeasureTools): Promise<Measured> {
  const { segments } = await tools.readTranscript(file, 'url', SUBTITLE_FORMATS);
  const words = countWords(segments.map((s) => s.text).join('\n'));
  if (words === 0) throw new RequestError(`url: the .${format} file's cues hold no words to translate`);
  return { seconds: 0, words, params: { source: 'document', subtitles: format, cues: segments.length }, keep: { source: file } };
}

/** A document is measured in words (seconds 0), a media file in seconds (words 0). */
async function measureDocumentOrMedia(url: string, tools: MeasureTools, accepts: string): Promise<Measured> {
  const file: FetchedFile = await tools.fetchFile(url, 'url');
  if (file.fileClass === 'media') return { seconds: await tools.mediaSeconds(url, 'url'), words: 0, params: { source: 'media' } };
  if (file.fileClass !== 'document') throw new RequestError(`url: ${accepts}`);
  const subtitles = subtitleFormatOf(file.fileName);
  if (subtitles) return measureSubtitles(file, subtitles, tools);
  return { seconds: 0, words: await tools.documentWords(file, 'url'), params: { source: 'document' }, keep: { source: file } };
}

/** Subtitles come back in their own format first, then the other one and the documents. */
const subtitleResultFormats = (format: SubtitleFormat) => [format, ...SUBTITLE_FORMATS.filter((f) => f !== format), ...DOCUMENT_FORMATS];

/** A translation's turnaround: three days, four with the additional review (also a translator's work handed over from an AI order). */
export const translationTurnaroundHours = (additionalReview: boolean): number => (additionalReview ? 96 : 72);

export const translation = defineProduct({
  key: 'translation',
  label: LABEL,
  path: 'translations',
  recordType: 'translations',
  languageSet: 'TL',
  request: translationRequest,
  fulfilment: 'operator',
  work: translationWork('translation', 'word'),
  creationFields: ['seconds', 'words'],
  prices: translationPrices,
  measure: (request, tools) =>
    measureDocumentOrMedia(
      request.url,
      tools,
      'translation takes a document (txt, docx, odt, doc, rtf, pdf, an HTML page, or SRT or WebVTT subtitles) or an audio or video file',
    ),
  price(prices, request, measured) {
    const review = request.additional_review;
    const cost =
      measured.params?.source === 'media'
        ? perMinute(measured.seconds, prices.media_per_minute_cents + (review ? prices.media_review_per_minute_cents : 0))
        : perThousandWords(measured.words, prices.per_1000_words_cents + (review ? prices.review_per_1000_words_cents : 0));
    return Math.max(prices.minimum_cents, cost);
  },
  // Three days, and one more for the expert's review.
  turnaroundHours: (request) => translationTurnaroundHours(request.additional_review === true),
  results: (params) => {
    const subtitles = (params as { subtitles?: SubtitleFormat }).subtitles;
    return [{ kind: 'translation', field: 'translation_url', formats: subtitles ? subtitleResultFormats(subtitles) : DOCUMENT_FORMATS }];
  },
  recordFields: (params) => ({ translate_from: params.translate_from, translate_to: params.translate_to }),
  callbackFields: (context) => finishedOnlyCallback(context, () => ({ translation_url: context.url('translation') })),
  example: { url: EXAMPLE_FILES.text, translate_from: 'english', translate_to: 'french' },
  samples: [
    {
      id: 7,
      status: 'finished',
      priceCents: 1200,
      seconds: 0,
      words: 120,
      params: { translate_from: 'english', translate_to: 'french', additional_review: false, source: 'document' },
    },
  ],
});
