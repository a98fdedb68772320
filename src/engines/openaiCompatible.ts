// A speech engine behind the OpenAI-compatible transcription interface
// (POST /v1/audio/transcriptions and /v1/audio/translations, multipart, response_format=verbose_json):
// OpenAI itself, faster-whisper / speaches, whisper.cpp server, vLLM and the like.
import { Agent, fetch, FormData } from 'undici';
import { z } from 'zod';
import { readCapped } from './answer.js';
import {
  EngineFaultError, EngineRejectedError,
  type EngineSegment, type EngineTranscript, type EngineWord, type SpeechEngine, type TranscribeRequest,
} from './types.js';

/** An answer larger than this is not a transcript we can use (a 3 h verbose_json is a few MB). */
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;
/** Statuses that mean "this input will never work": retrying would only repeat the refusal. */
const REJECTING_STATUSES = new Set([400, 413, 415, 422]);

const apiWord = z.object({ word: z.string(), start: z.number(), end: z.number() });
// Optional fields are nullish: some servers send null where OpenAI leaves a field out.
const verboseJson = z.object({
  text: z.string().nullish(),
  language: z.string().nullish(),
  // Beyond OpenAI's answer (the local engine sends it): how likely each language was, when the engine chose.
  language_probabilities: z.record(z.string(), z.number()).nullish(),
  duration: z.number().nullish(),
  segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string(), words: z.array(apiWord).nullish() })).nullish(),
  words: z.array(apiWord).nullish(),
});
type ApiWord = z.infer<typeof apiWord>;

export function openAiCompatibleEngine(opts: { baseUrl: string; model: string; apiKey?: string }): SpeechEngine {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const name = `openai-compatible:${opts.model}`;
  // undici's own header/body timeouts (300 s) would cut long transcriptions short: the
  // request's deadline signal is the only limit.
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

  /** One audio request: `transcriptions` in the language given (or the one the engine hears), `translations` into English. */
  async function post(task: 'transcriptions' | 'translations', req: TranscribeRequest): Promise<EngineTranscript> {
    const form = new FormData();
    // (The cast only satisfies lib.dom's BlobPart: Blob copies the bytes of any view.)
    form.append('file', new Blob([req.audio as Uint8Array<ArrayBuffer>], { type: req.contentType ?? 'application/octet-stream' }), req.fileName);
    form.append('model', opts.model);
    // A translation is always into English: the spoken language is the engine's to find.
    if (req.language && task === 'transcriptions') form.append('language', req.language);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    const what = task === 'transcriptions' ? 'transcription' : 'translation';

    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
    try {
      const response = await fetch(`${base}/v1/audio/${task}`, { method: 'POST', body: form, headers, signal, dispatcher });
      const body = await readCapped(response, name, MAX_ANSWER_BYTES);
      if (!response.ok) throw statusError(name, response.status, body);
      return toTranscript(parseAnswer(name, body));
    } catch (err) {
      if (err instanceof EngineRejectedError || err instanceof EngineFaultError) throw err;
      // The caller's cancellation wins over the deadline when both have fired.
      if (req.signal?.aborted) throw abortError(req.signal.reason);
      if (deadline.aborted) throw new EngineFaultError(`${name}: the ${what} request timed out after ${req.timeoutMs} ms`);
      const cause = (err as Error).cause as Error | undefined;
      throw new EngineFaultError(`${name}: the ${what} request failed: ${cause?.message ?? (err as Error).message}`, { cause: err });
    }
  }

  return {
    name,
    transcribe: (req) => post('transcriptions', req),
    translateToEnglish: (req) => post('translations', req),
  };
}

function statusError(name: string, status: number, body: string): Error {
  const message = serverMessage(body);
  // The server's words alone: callers pass a rejection on to the customer.
  if (REJECTING_STATUSES.has(status)) return new EngineRejectedError(message || `the engine answered HTTP ${status}`);
  return new EngineFaultError(`${name} answered HTTP ${status}${message ? `: ${message}` : ''}`);
}

/** The message of an OpenAI-style `{error: {message}}`, else the body's text; at most 200 characters. */
function serverMessage(body: string): string {
  let message = body;
  try {
    const data = JSON.parse(body) as { error?: { message?: unknown } | string; detail?: unknown };
    if (typeof data.error === 'object' && typeof data.error?.message === 'string') message = data.error.message;
    else if (typeof data.error === 'string') message = data.error;
    else if (typeof data.detail === 'string') message = data.detail;
  } catch { /* not JSON: the text itself */ }
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}

function parseAnswer(name: string, body: string): z.infer<typeof verboseJson> {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new EngineFaultError(`${name}: the answer is not JSON: ${JSON.stringify(body.slice(0, 80))}`);
  }
  const parsed = verboseJson.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EngineFaultError(`${name}: the answer is not verbose_json (${issue.path.join('.') || 'root'}: ${issue.message})`);
  }
  return parsed.data;
}

/** A fresh AbortError carrying the caller's reason, unless the reason already is one. */
function abortError(reason: unknown): Error {
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('the transcription request was aborted', { cause: reason });
  err.name = 'AbortError';
  return err;
}

const toWords = (words: ApiWord[]): EngineWord[] =>
  words.map((w) => ({ text: w.word.trim(), start: w.start, end: w.end })).filter((w) => w.text !== '');

function toTranscript(answer: z.infer<typeof verboseJson>): EngineTranscript {
  const topLevel = toWords(answer.words ?? []).sort((a, b) => a.start - b.start);
  const meta = {
    ...(answer.language ? { language: answer.language } : {}), ...(answer.duration != null ? { duration: answer.duration } : {}),
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
    segments.push({ start: s.start, end: s.end, text, words });
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
