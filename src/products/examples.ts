// What the products' examples and samples (their definitions' `example` and `samples`) share: the
// files the OpenAPI document's example requests name, and the transcript choices of sample orders.

/** Where the examples' files live; tests swap this origin for a loopback media server. */
export const EXAMPLE_MEDIA_ORIGIN = 'https://media.example.com';

/** The files of the example requests: 90 s of audio, a transcript, a page image. */
export const EXAMPLE_FILES = {
  audio: `${EXAMPLE_MEDIA_ORIGIN}/audio-90.wav`,
  text: `${EXAMPLE_MEDIA_ORIGIN}/notes.txt`,
  image: `${EXAMPLE_MEDIA_ORIGIN}/page.png`,
} as const;

/** The transcript choices of the sample orders of transcription-like products. */
export const SAMPLE_TRANSCRIPT_PARAMS = {
  text_format: 'clean_verbatim',
  timestamping: 'not_required',
  turnaround_time: '5_days',
  number_of_speakers: '1_or_2',
} as const;
