// A speech engine behind the OpenAI-compatible transcription interface
// (POST /v1/audio/transcriptions and /v1/audio/translations, multipart, response_format=verbose_json):
// OpenAI itself, faster-whisper / speaches, whisper.cpp server, vLLM and the like.
import { fetch } from 'undici';
import { z } from 'zod';
import { audioForm, backgroundHeaders, engineDispatcher, parseAnswer, readCapped, requestFailure, statusError } from './engineHttp.js';
import type { EngineSegment, EngineTranscript, EngineWord, SpeechEngine, TranscribeRequest } from './types.js';

/** An answer larger than this is not a transcript we can use (a 3 h verbose_json is a few MB). */
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

// `probability` is beyond OpenAI's answer (the local engine and faster-whisper servers give it).
const apiWord = z.object({ word: z.string(), start: z.number(), end: z.number(), probability: z.number().min(0).max(1).nullish() });
// Optional fields are nullish: some servers send null where OpenAI leaves a field out.
const verboseJson = z.object({
  text: z.string().nullish(),
  language: z.string().nullish(),
  // Beyond OpenAI's answer (the local engine sends it): how likely each language was, when the engine chose.
  language_probabilities: z.record(z.string(), z.number()).nullish(),
  duration: z.number().nullish(),
  speech_duration: z.number().nonnegative().nullish(),
  segments: z
    .array(
      z.object({
        start: z.number(),
        end: z.number(),
        text: z.string(),
        words: z.array(apiWord).nullish(),
        avg_logprob: z.number().nullish(),
        compression_ratio: z.number().nullish(),
        no_speech_prob: z.number().nullish(),
      }),
    )
    .nullish(),
  words: z.array(apiWord).nullish(),
});
type ApiWord = z.infer<typeof apiWord>;

/**
 * The terms as the engine's `prompt` (Whisper's: the text it takes as already heard, which spells
 * names as given; the local engine passes it to faster-whisper as `hotwords`). Whisper reads at most
 * 224 tokens of it: the terms that fit in about 800 characters, in the customer's order.
 */
export function vocabularyPrompt(terms: readonly string[]): string {
  let prompt = '';
  for (const term of terms) {
    const next = prompt ? `${prompt}, ${term}` : term;
    if (next.length > 800) break;
    prompt = next;
  }
  return prompt;
}

export function openAiCompatibleEngine(opts: { baseUrl: string; model: string; apiKey?: string }): SpeechEngine {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const name = `openai-compatible:${opts.model}`;

  /** One audio request: `transcriptions` in the language given (or the one the engine hears), `translations` into English. */
  async function post(task: 'transcriptions' | 'translations', req: TranscribeRequest): Promise<EngineTranscript> {
    // A translation is always into English: the spoken language is the engine's to find.
    const form = audioForm(req, {
      model: opts.model,
      ...(req.language && task === 'transcriptions' ? { language: req.language } : {}),
      ...(req.vocabulary?.length ? { prompt: vocabularyPrompt(req.vocabulary) } : {}),
      response_format: 'verbose_json',
    });
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    const headers: Record<string, string> = { accept: 'application/json', ...backgroundHeaders(req) };
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    const what = task === 'transcriptions' ? 'transcription request' : 'translation request';

    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
    try {
      const response = await fetch(`${base}/v1/audio/${task}`, { method: 'POST', body: form, headers, signal, dispatcher: engineDispatcher });
      const body = await readCapped(response, name, MAX_ANSWER_BYTES);
      if (!response.ok) throw statusError(name, response.status, body);
      return toTranscript(parseAnswer(name, body, verboseJson, 'verbose_json'));
    } catch (err) {
      throw requestFailure(err, name, what, req, deadline);
    }
  }

  return {
    name,
    transcribe: (req) => post('transcriptions', req),
    translateToEnglish: (req) => post('translations', req),
  };
}

const toWords = (words: ApiWord[]): EngineWord[] =>
  words
    .map((w) => ({ text: w.word.trim(), start: w.start, end: w.end, ...(w.probability != null ? { probability: w.probability } : {}) }))
    .filter((w) => w.text !== '');

function toTranscript(answer: z.infer<typeof verboseJson>): EngineTranscript {
  const topLevel = toWords(answer.words ?? []).sort((a, b) => a.start - b.start);
  const meta = {
    ...(answer.language ? { language: answer.language } : {}),
    ...(answer.duration != null ? { duration: answer.duration } : {}),
    ...(answer.speech_duration != null ? { speechDuration: answer.speech_duration } : {}),
    ...(answer.language_probabilities ? { languageProbabilities: answer.language_probabilities } : {}),
  };

  if (!answer.segments) {
    // Only `text` (and maybe `words`): one segment for all of it.
    const text = (answer.text ?? topLevel.map((w) => w.text).join(' ')).trim();
    if (!text) return { segments: [], ...meta };
    return { segments: [{ start: 0, end: answer.duration ?? topLevel.at(-1)?.end ?? 0, text, words: topLevel }], ...meta };
  }

  const last = answer.segments.length - 1;
  const segments: EngineSegment[] = [];
  answer.segments.forEach((s, index) => {
    const text = s.text.trim();
    if (!text) return;
    let words: EngineWord[];
    if (s.words?.length) {
      words = toWords(s.words);
    } else {
      // Words whose start lies in [start, end); the last segment also takes a word starting at its end.
      const from = lowerBound(topLevel, s.start);
      words = [];
      for (let i = from; i < topLevel.length; i++) {
        const w = topLevel[i]!;
        if (w.start > s.end || (w.start === s.end && index !== last)) break;
        words.push(w);
      }
    }
    const figures = {
      ...(s.avg_logprob != null ? { avgLogprob: s.avg_logprob } : {}),
      ...(s.compression_ratio != null ? { compressionRatio: s.compression_ratio } : {}),
      ...(s.no_speech_prob != null ? { noSpeechProb: s.no_speech_prob } : {}),
    };
    segments.push({ start: s.start, end: s.end, text, words, ...figures });
  });
  return { segments, ...meta };
}

/** Index of the first word starting at or after `t` (words sorted by start). */
function lowerBound(words: EngineWord[], t: number): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid]!.start < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
