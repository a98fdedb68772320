// Everything the service knows about a kind of result file, in one table: the formats it is
// served in (the first is the default), whether its documents carry the order's timestamp
// marks, and what its file must hold to be accepted (text, timed cues, or word timings).
import type { ResultFormat } from './formats.js';

export type ResultKind =
  'transcription' | 'captions' | 'translation' | 'subtitles' | 'proofread_transcription' | 'proofread_captions' | 'forced_alignment' | 'human_ocr';

/** What a result file must hold: `cues`, times to make captions; `words`, word timings (an alignment). */
export type ResultNeeds = 'text' | 'cues' | 'words';

export interface ResultKindDefinition {
  /** Every format the kind may be served in; an order may offer fewer (a product's `results`). */
  formats: readonly ResultFormat[];
  /** Documents of this kind carry the order's `timestamping` marks. */
  timestamped: boolean;
  needs: ResultNeeds;
}

const TRANSCRIPT: readonly ResultFormat[] = ['docx', 'doc', 'pdf', 'text', 'html', 'json', 'json2'];
const CAPTIONS: readonly ResultFormat[] = ['srt', 'vtt', 'ttml', 'dfxp'];
/** The formats of a result that is text to read (a translation of a document, OCR). */
export const DOCUMENT_FORMATS: readonly ResultFormat[] = ['docx', 'pdf', 'text'];
/** Subtitle formats a translation of a subtitle file is also served in, its own first. */
export const SUBTITLE_FORMATS = ['srt', 'vtt'] as const satisfies readonly ResultFormat[];
const TIMED: ReadonlySet<ResultFormat> = new Set([...CAPTIONS, ...SUBTITLE_FORMATS]);

export const RESULT_KIND_DEFINITIONS: Readonly<Record<ResultKind, ResultKindDefinition>> = {
  transcription: { formats: TRANSCRIPT, timestamped: true, needs: 'text' },
  proofread_transcription: { formats: TRANSCRIPT.filter((f) => f !== 'json2'), timestamped: true, needs: 'text' },
  captions: { formats: CAPTIONS, timestamped: false, needs: 'cues' },
  proofread_captions: { formats: CAPTIONS, timestamped: false, needs: 'cues' },
  subtitles: { formats: CAPTIONS, timestamped: false, needs: 'cues' },
  translation: { formats: [...DOCUMENT_FORMATS, ...SUBTITLE_FORMATS], timestamped: false, needs: 'text' },
  human_ocr: { formats: DOCUMENT_FORMATS, timestamped: false, needs: 'text' },
  forced_alignment: { formats: ['json'], timestamped: false, needs: 'words' },
};

export const RESULT_KINDS = Object.keys(RESULT_KIND_DEFINITIONS) as ResultKind[];

/** What a file of `kind` must hold to be served in every one of `formats`: times, if any of them is timed. */
export function resultNeeds(kind: ResultKind, formats: readonly ResultFormat[]): ResultNeeds {
  const { needs } = RESULT_KIND_DEFINITIONS[kind];
  return needs === 'text' && formats.some((f) => TIMED.has(f)) ? 'cues' : needs;
}

export function isResultKind(value: string): value is ResultKind {
  return Object.hasOwn(RESULT_KIND_DEFINITIONS, value);
}

/**
 * Why `kinds` cannot be submitted for an order delivering `orderKinds`, or undefined when they
 * can. `completing`: the submission finishes the order, so every kind the order delivers is needed.
 */
export function resultKindsProblem(orderKinds: readonly string[], kinds: readonly string[], completing: boolean): string | undefined {
  if (kinds.length === 0) return 'at least one result file is needed';
  const stranger = kinds.find((k) => !orderKinds.includes(k));
  if (stranger) return `${stranger} is not a result of this order (it delivers ${orderKinds.join(', ')})`;
  const twice = kinds.find((k, i) => kinds.indexOf(k) !== i);
  if (twice) return `${twice} is given twice`;
  const missing = completing ? orderKinds.filter((k) => !kinds.includes(k)) : [];
  if (missing.length) return `a ${missing.join(' and a ')} file ${missing.length > 1 ? 'are' : 'is'} needed`;
  return undefined;
}
