// Forced alignment behind one interface: by recognition (any speech engine's word timings,
// matched to the known text) or by the local engine's phonetic aligner (English), which falls
// back to recognition for the languages it does not cover.
import { Agent, fetch, FormData } from 'undici';
import { z } from 'zod';
import { alignmentUsable, alignTranscript, MIN_MATCHED_RATIO } from './align.js';
import { EngineFaultError, EngineRejectedError, type Aligner, type AlignRequest, type SpeechEngine } from './types.js';

export function recognitionAligner(engine: SpeechEngine): Aligner {
  return {
    name: `recognition:${engine.name}`,
    async align(req: AlignRequest) {
      const heard = await engine.transcribe(req);
      const alignment = alignTranscript(req.text, heard.segments.flatMap((s) => s.words));
      if (!alignmentUsable(alignment)) {
        throw new EngineRejectedError(`the text does not match the audio: ${alignment.matched} of ${alignment.total} words were heard (at least ${MIN_MATCHED_RATIO * 100}% are needed)`);
      }
      return alignment.words;
    },
  };
}

const alignedWords = z.object({ words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })) });
const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** The local engine's `POST /v1/audio/alignments` for `languages`; recognition for the others. */
export function localAligner(baseUrl: string, languages: readonly string[], fallback: Aligner): Aligner {
  const endpoint = `${baseUrl.replace(/\/+$/, '')}/v1/audio/alignments`;
  return {
    name: `local-aligner+${fallback.name}`,
    async align(req: AlignRequest) {
      if (!languages.includes(req.language)) return fallback.align(req);
      const form = new FormData();
      form.append('file', new Blob([req.audio as Uint8Array<ArrayBuffer>], { type: req.contentType ?? 'application/octet-stream' }), req.fileName);
      form.append('text', req.text);
      form.append('language', req.language);
      const deadline = AbortSignal.timeout(req.timeoutMs);
      let response;
      try {
        response = await fetch(endpoint, { method: 'POST', body: form, dispatcher, signal: req.signal ? AbortSignal.any([req.signal, deadline]) : deadline });
      } catch (err) {
        if (req.signal?.aborted) throw err;
        throw new EngineFaultError(`local aligner: ${deadline.aborted ? `timed out after ${req.timeoutMs} ms` : String((err as Error).cause ?? err)}`);
      }
      const text = await response.text();
      if (response.status === 422 || response.status === 400) {
        throw new EngineRejectedError((JSON.parse(text) as { error?: { message?: string } }).error?.message ?? `the aligner answered ${response.status}`);
      }
      if (!response.ok) throw new EngineFaultError(`local aligner answered HTTP ${response.status}`);
      const parsed = alignedWords.safeParse(JSON.parse(text));
      if (!parsed.success) throw new EngineFaultError('local aligner: the answer is not an alignment');
      return parsed.data.words.map((w) => ({ word: w.word, begin: w.start, end: w.end }));
    },
  };
}
