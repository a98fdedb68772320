// Order parameters in words, for the order's page (src/web/pages/order.ts) and the new-order form
// (src/web/pages/newOrder.ts): each API name's label and how its value reads, enum slugs as words.

/** How a parameter's value reads: as given, as words (enum slugs), a language's name, a clock time, … */
export type Reading = 'as-given' | 'words' | 'language' | 'clock' | 'upper' | 'order' | 'terms';

/**
 * The order's parameters as a person reads them: each API name's label and how its value reads, in
 * the order the page lists them (the products' request schemas, src/products/, and what an order
 * learns, LearntParams). A name not here still shows, after these, its name in words.
 */
export const PARAMETER_WORDS: Readonly<Record<string, { label: string; reads?: Reading }>> = {
  url: { label: 'Media file' }, // 'File' where the order's url is a document or an image (labelOf)
  audio_url: { label: 'Audio file' },
  transcription_url: { label: 'Transcript supplied' },
  source: { label: 'File kind', reads: 'words' },
  subtitles: { label: 'Subtitle format', reads: 'upper' },
  cues: { label: 'Subtitle cues' },
  language: { label: 'Language', reads: 'language' },
  spoken_language: { label: 'Language spoken', reads: 'language' },
  translate_from: { label: 'Translated from', reads: 'language' },
  translate_to: { label: 'Translated into', reads: 'language' },
  from: { label: 'From', reads: 'clock' },
  till: { label: 'Until', reads: 'clock' },
  requested_till: { label: 'Until, as asked', reads: 'clock' },
  text_format: { label: 'Text format', reads: 'words' },
  timestamping: { label: 'Timestamps', reads: 'words' },
  number_of_speakers: { label: 'Speakers', reads: 'words' },
  turnaround_time: { label: 'Turnaround', reads: 'words' },
  requested_turnaround_time: { label: 'Turnaround asked for', reads: 'words' },
  strict: { label: 'Strict turnaround' },
  captions: { label: 'Captions too' },
  additional_review: { label: 'Second review' },
  auto_retranscribe: { label: 'Retranscribe if too poor' },
  vocabulary: { label: 'Vocabulary', reads: 'terms' },
  comment: { label: 'Comment' },
  retranscription_of: { label: 'Replaces proofreading order', reads: 'order' },
  callback_url: { label: 'Callback URL' }, // shown in a row of its own, with the account's where the order has none
};

/** Enum values whose words are not just their slug's. */
export const VALUE_WORDS: Readonly<Record<string, string>> = { '1_days': '1 day', change_of_speaker: 'At each change of speaker' };

/** The table's entry of a parameter (own keys only: a parameter may be named `constructor`). */
export const wordsOf = (name: string) => (Object.hasOwn(PARAMETER_WORDS, name) ? PARAMETER_WORDS[name] : undefined);

/** `text_format` → "Text format", `5_days` → "5 days". */
export const inWords = (slug: string) => {
  const words = slug.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** An enum value in words: `12_hours` → "12 hours", `1_days` → "1 day", `clean_verbatim` → "Clean verbatim". */
export const valueInWords = (slug: string): string => (Object.hasOwn(VALUE_WORDS, slug) ? VALUE_WORDS[slug]! : inWords(slug));
