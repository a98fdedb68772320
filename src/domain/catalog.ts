// The product catalog: every product's parameters, enumerations, defaults and language sets.
// It is data. The API builds its validation from it and GET /api/v4/languages reads it.
import { LANGUAGE_SETS, languageName, type LanguageSetName } from './languages.js';

export const ENUMS = {
  mode: ['test', 'live'],
  text_format: ['clean_verbatim', 'full_verbatim'],
  timestamping: ['not_required', 'every_10_seconds', 'every_30_seconds', 'every_2_minutes', 'change_of_speaker'],
  turnaround_time: ['12_hours', '1_days', '3_days', '5_days'],
  number_of_speakers: ['1_or_2', '3_or_more'],
} as const;

export type EnumName = keyof typeof ENUMS;
export type Mode = (typeof ENUMS.mode)[number];
export type TurnaroundTime = (typeof ENUMS.turnaround_time)[number];

/** How a parameter is validated. `required: false` without a default means optional. */
export type ParamSpec =
  | { kind: 'url'; required: boolean; about: string }
  | { kind: 'language'; set: LanguageSetName; about: string }
  | { kind: 'enum'; values: EnumName; default: string }
  | { kind: 'text'; about: string }
  | { kind: 'seconds'; about: string }
  | { kind: 'boolean'; default: boolean; about: string };

export type ProductKey =
  | 'transcription' | 'ai_transcription' | 'transcription_proofreading' | 'forced_alignment'
  | 'translation' | 'captions' | 'subtitles' | 'human_ocr';

export type ResultKind =
  | 'transcription' | 'captions' | 'translation' | 'subtitles' | 'proofread_transcription'
  | 'proofread_captions' | 'forced_alignment' | 'human_ocr';

export const RESULT_KINDS: readonly ResultKind[] = [
  'transcription', 'captions', 'translation', 'subtitles', 'proofread_transcription',
  'proofread_captions', 'forced_alignment', 'human_ocr',
];

export interface ProductDefinition {
  key: ProductKey;
  /** Human-readable name used in error messages. */
  label: string;
  /** Path segment under /api/v4. */
  path: string;
  /** `type` of the order record. */
  recordType: string;
  /** Language set shown by GET /api/v4/languages, absent when the product is not listed there. */
  languageSet?: LanguageSetName;
  /** Whether turnaround_time is restricted by the language groups T35 and T5. */
  turnaroundByLanguage: boolean;
  /** What the order is measured in: audio seconds or document words. */
  measure: 'seconds' | 'words';
  /** Result files a finished order carries. */
  resultKinds: readonly ResultKind[];
  params: Readonly<Record<string, ParamSpec>>;
}

const callbackUrl: ParamSpec = { kind: 'url', required: false, about: 'where callbacks are sent' };
const comment: ParamSpec = { kind: 'text', about: 'notes for the workers' };
const textFormat: ParamSpec = { kind: 'enum', values: 'text_format', default: 'clean_verbatim' };
const timestamping: ParamSpec = { kind: 'enum', values: 'timestamping', default: 'not_required' };
const turnaround: ParamSpec = { kind: 'enum', values: 'turnaround_time', default: '5_days' };
const speakers: ParamSpec = { kind: 'enum', values: 'number_of_speakers', default: '1_or_2' };
const additionalReview: ParamSpec = { kind: 'boolean', default: false, about: 'a final review by an expert translator' };

const transcriptionParams = {
  url: { kind: 'url', required: true, about: 'the media file' },
  language: { kind: 'language', set: 'HT', about: 'the spoken language' },
  comment,
  from: { kind: 'seconds', about: 'start at this many seconds' },
  till: { kind: 'seconds', about: 'stop at this many seconds' },
  text_format: textFormat,
  timestamping,
  turnaround_time: turnaround,
  number_of_speakers: speakers,
  callback_url: callbackUrl,
} as const satisfies Record<string, ParamSpec>;

export const PRODUCTS: Readonly<Record<ProductKey, ProductDefinition>> = {
  transcription: {
    key: 'transcription', label: 'human transcription', path: 'transcriptions', recordType: 'transcriptions',
    languageSet: 'HT', turnaroundByLanguage: true, measure: 'seconds', resultKinds: ['transcription'],
    params: { ...transcriptionParams, strict: { kind: 'boolean', default: false, about: 'reject an unavailable turnaround' } },
  },
  ai_transcription: {
    key: 'ai_transcription', label: 'AI transcription', path: 'ai-transcriptions', recordType: 'transcriptions',
    languageSet: 'AI', turnaroundByLanguage: false, measure: 'seconds', resultKinds: ['transcription', 'captions'],
    params: { url: { kind: 'url', required: true, about: 'the audio file' }, language: { kind: 'language', set: 'AI', about: 'the output language' }, callback_url: callbackUrl },
  },
  transcription_proofreading: {
    key: 'transcription_proofreading', label: 'transcription proofreading', path: 'transcription-proofreadings',
    recordType: 'transcription_proofreadings', languageSet: 'HT', turnaroundByLanguage: true, measure: 'seconds',
    resultKinds: ['proofread_transcription', 'proofread_captions'],
    params: {
      audio_url: { kind: 'url', required: true, about: 'the audio file' },
      transcription_url: { kind: 'url', required: true, about: 'the AI transcript to correct' },
      language: { kind: 'language', set: 'HT', about: 'the spoken language' },
      text_format: textFormat, timestamping, turnaround_time: turnaround,
      captions: { kind: 'boolean', default: false, about: 'order captions with the proofreading' },
      auto_retranscribe: { kind: 'boolean', default: false, about: 'hand a poor transcript to a full human transcription' },
      comment, callback_url: callbackUrl,
    },
  },
  forced_alignment: {
    key: 'forced_alignment', label: 'forced alignment', path: 'forced-alignments', recordType: 'forced_alignments',
    languageSet: 'FA', turnaroundByLanguage: false, measure: 'seconds', resultKinds: ['forced_alignment'],
    params: {
      audio_url: { kind: 'url', required: true, about: 'the audio file' },
      transcription_url: { kind: 'url', required: true, about: 'the transcript to align' },
      language: { kind: 'language', set: 'FA', about: 'the spoken language' },
      callback_url: callbackUrl,
    },
  },
  translation: {
    key: 'translation', label: 'translation', path: 'translations', recordType: 'translations',
    languageSet: 'TL', turnaroundByLanguage: false, measure: 'words', resultKinds: ['translation'],
    params: {
      url: { kind: 'url', required: true, about: 'the document or media file' },
      translate_from: { kind: 'language', set: 'TL', about: 'the source language' },
      translate_to: { kind: 'language', set: 'TL', about: 'the target language' },
      additional_review: additionalReview, comment, callback_url: callbackUrl,
    },
  },
  captions: {
    key: 'captions', label: 'captions', path: 'captions', recordType: 'captions',
    languageSet: 'HT', turnaroundByLanguage: true, measure: 'seconds', resultKinds: ['captions', 'transcription'],
    params: { ...transcriptionParams },
  },
  subtitles: {
    key: 'subtitles', label: 'subtitles', path: 'subtitles', recordType: 'subtitles',
    languageSet: 'TL', turnaroundByLanguage: false, measure: 'seconds', resultKinds: ['subtitles'],
    params: {
      url: { kind: 'url', required: true, about: 'the media file' },
      translate_from: { kind: 'language', set: 'TL', about: 'the language of the file' },
      translate_to: { kind: 'language', set: 'TL', about: 'the subtitle language' },
      additional_review: additionalReview, comment, callback_url: callbackUrl,
    },
  },
  human_ocr: {
    // The spec shows no language list for OCR; the human transcription set is used (docs/decisions.md).
    key: 'human_ocr', label: 'human OCR', path: 'human-ocr', recordType: 'human_ocr',
    turnaroundByLanguage: false, measure: 'words', resultKinds: ['human_ocr'],
    params: {
      url: { kind: 'url', required: true, about: 'the scanned document (DOCX, PDF or image)' },
      language: { kind: 'language', set: 'HT', about: 'the document language' },
      callback_url: callbackUrl,
    },
  },
};

export function isProductKey(value: string): value is ProductKey {
  return Object.hasOwn(PRODUCTS, value);
}

export function languageSet(name: LanguageSetName): ReadonlySet<string> {
  return LANGUAGE_SETS_AS_SETS[name];
}

const LANGUAGE_SETS_AS_SETS = Object.fromEntries(
  Object.entries(LANGUAGE_SETS).map(([name, slugs]) => [name, new Set(slugs)]),
) as unknown as Record<LanguageSetName, ReadonlySet<string>>;

export interface LanguageEntry { slug: string; name: string }

/** The body of GET /api/v4/languages: products with a language list, keyed by product. */
export function languagesByProduct(only?: ProductKey): Record<string, LanguageEntry[]> {
  const out: Record<string, LanguageEntry[]> = {};
  for (const product of Object.values(PRODUCTS)) {
    if (!product.languageSet || (only && product.key !== only)) continue;
    out[product.key] = LANGUAGE_SETS[product.languageSet].map((slug) => ({ slug, name: languageName(slug) }));
  }
  return out;
}

/** Products GET /api/v4/languages accepts in `product`. */
export const LANGUAGE_LISTED_PRODUCTS = Object.values(PRODUCTS).filter((p) => p.languageSet).map((p) => p.key);
