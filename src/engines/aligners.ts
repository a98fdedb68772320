// Forced alignment behind one interface: by recognition (any speech engine's word timings,
// matched to the known text) or by the local engine's phonetic aligner (English), which falls
// back to recognition for the languages it does not cover.
import { z } from 'zod';
import { alignmentUsable, alignTranscript, MIN_MATCHED_RATIO } from './align.js';
import { audioForm, postEngineForm } from './engineHttp.js';
import { EngineRejectedError, type Aligner, type AlignRequest, type SpeechEngine } from './types.js';

export function recognitionAligner(engine: SpeechEngine): Aligner {
  return {
    name: `recognition:${engine.name}`,
    async align(req: AlignRequest) {
      const heard = await engine.transcribe(req);
      const alignment = alignTranscript(
        req.text,
        heard.segments.flatMap((s) => s.words),
      );
      if (!alignmentUsable(alignment)) {
        throw new EngineRejectedError(
          `the text does not match the audio: ${alignment.matched} of ${alignment.total} words were heard (at least ${MIN_MATCHED_RATIO * 100}% are needed)`,
        );
      }
      return alignment.words;
    },
  };
}

const alignedWords = z.object({ words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })) });

/** The local engine's `POST /v1/audio/alignments` for `languages`; recognition for the others. */
export function localAligner(baseUrl: string, languages: readonly string[], fallback: Aligner): Aligner {
  const endpoint = `${baseUrl.replace(/\/+$/, '')}/v1/audio/alignments`;
  return {
    name: `local-aligner+${fallback.name}`,
    async align(req: AlignRequest) {
      if (!languages.includes(req.language)) return fallback.align(req);
      const { words } = await postEngineForm(endpoint, audioForm(req, { text: req.text, language: req.language }), alignedWords, 'local aligner', req);
      return words.map((w) => ({ word: w.word, begin: w.start, end: w.end }));
    },
  };
}
