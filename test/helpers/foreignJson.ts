// JSON transcripts as other tools write them, for the importer's tests (unit and through the
// service): WhisperX's output, with numbers left untimed in `words`, a segment whose `words` is a
// note, fields of their own. The contract imports text, speaker, start and end, and ignores the rest.
export const WHISPERX_TRANSCRIPT = {
  language: 'en',
  segments: [
    {
      start: 0.5,
      end: 2,
      text: ' It cost 20 dollars.',
      speaker: 'SPEAKER_00',
      words: [
        { word: 'It', start: 0.5, end: 0.7, score: 0.9 },
        { word: 'cost', start: 0.7, end: 1.0, score: 0.8 },
        { word: '20' },
        { word: 'dollars.', start: 1.4, end: 2, score: 0.7 },
      ],
    },
    { start: 2, end: 3, text: 'Fine.', words: 'n/a', start_ms: 'soon', avg_logprob: -0.2, tokens: [1, 2], extra: { deep: [null] } },
    { start: 3, end: 4, text: 'Timed.', words: [{ word: 'Timed.', start: 3, end: 4 }] },
  ],
  word_segments: 'omitted',
};
