// What every HTTP engine adapter (speech, translation, alignment, diarization) does with a
// request: send the audio as a form, read the answer within a bound, tell a refusal from a fault,
// check its shape, and turn a request that threw into the error its caller expects.
import { Agent, fetch, FormData, type Response } from 'undici';
import type { z } from 'zod';
import { EngineFaultError, EngineRejectedError, type TranscribeRequest } from './types.js';

/** The statuses by which an engine says it cannot do this input: not retried. */
const REJECTING_STATUSES = new Set([400, 413, 415, 422]);

/** The answer read whole, but never more than `maxBytes`: a misbehaving server cannot fill the worker's memory. */
export async function readCapped(response: Response, name: string, maxBytes: number): Promise<string> {
  const tooLarge = () => new EngineFaultError(`${name}: the answer is larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop by throwing cancels the stream.
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The engine's own words in an error body (`{error: {message}}`, `{error}`, `{detail}`), else its text; at most 200 characters. */
function serverMessage(body: string): string {
  let message = body;
  try {
    const data = JSON.parse(body) as { error?: { message?: unknown } | string; detail?: unknown };
    if (typeof data.error === 'object' && typeof data.error?.message === 'string') message = data.error.message;
    else if (typeof data.error === 'string') message = data.error;
    else if (typeof data.detail === 'string') message = data.detail;
  } catch {
    /* not JSON: the text itself */
  }
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}

/** A non-2xx answer: a refusal in the engine's own words (callers pass it on to the customer), else a fault. */
export function statusError(name: string, status: number, body: string, speaker = 'the engine'): Error {
  const message = serverMessage(body);
  if (REJECTING_STATUSES.has(status)) return new EngineRejectedError(message || `${speaker} answered HTTP ${status}`);
  return new EngineFaultError(`${name} answered HTTP ${status}${message ? `: ${message}` : ''}`);
}

/** The answer as `schema` describes it (`shape` names it in the error); a fault when it is not JSON or not that. */
export function parseAnswer<T>(name: string, body: string, schema: z.ZodType<T>, shape: string): T {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new EngineFaultError(`${name}: the answer is not JSON: ${JSON.stringify(body.slice(0, 80))}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EngineFaultError(`${name}: the answer is not ${shape} (${issue.path.join('.') || 'root'}: ${issue.message})`);
  }
  return parsed.data;
}

/**
 * What a request that threw becomes: the adapters' own errors as they are, the caller's
 * cancellation an AbortError (it wins over the deadline when both fired), the deadline and
 * anything else (the network) faults. `what` names the request: "the <what> timed out".
 */
export function requestFailure(
  err: unknown,
  name: string,
  what: string,
  req: { timeoutMs: number; signal?: AbortSignal | undefined },
  deadline: AbortSignal,
): Error {
  if (err instanceof EngineRejectedError || err instanceof EngineFaultError) return err;
  if (req.signal?.aborted) {
    const reason: unknown = req.signal.reason;
    if (reason instanceof Error && reason.name === 'AbortError') return reason;
    return Object.assign(new Error(`${name}: the ${what} was aborted`, { cause: reason }), { name: 'AbortError' });
  }
  if (deadline.aborted) return new EngineFaultError(`${name}: the ${what} timed out after ${req.timeoutMs} ms`);
  const cause = (err as Error).cause as Error | undefined;
  return new EngineFaultError(`${name}: the ${what} failed: ${cause?.message ?? (err as Error).message}`, { cause: err });
}

// ---- Our own engine endpoints (alignment, diarization): one multipart POST each ----

// Word timings and speaker turns of hours of speech stay well under this.
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;
// Engine work can take minutes (undici's own 300 s timers would cut it short): each request's
// deadline signal is its only limit.
export const engineDispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** The request's audio as a form with `fields` beside it. */
export function audioForm(req: Pick<TranscribeRequest, 'audio' | 'contentType' | 'fileName'>, fields: Record<string, string>): FormData {
  const form = new FormData();
  const type = req.contentType ?? 'application/octet-stream';
  // A Blob (a file on disk) goes as it is, read as it is sent; bytes are wrapped.
  const file =
    req.audio instanceof Blob
      ? req.audio.type === type
        ? req.audio
        : req.audio.slice(0, req.audio.size, type)
      : new Blob([req.audio as Uint8Array<ArrayBuffer>], { type });
  form.append('file', file, req.fileName);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** RFC 9218's lowest urgency for work nobody waits on now (TranscribeRequest.background). */
export const backgroundHeaders = (req: Pick<TranscribeRequest, 'background'>): Record<string, string> => (req.background ? { priority: 'u=7' } : {});

/** The engine's answer in the shape of `answer`; its refusals (400, 413, 415, 422) are EngineRejectedError, other failures faults. */
export async function postEngineForm<T>(
  endpoint: string,
  form: FormData,
  answer: z.ZodType<T>,
  label: string,
  req: Pick<TranscribeRequest, 'timeoutMs' | 'signal' | 'background'>,
): Promise<T> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      body: form,
      headers: backgroundHeaders(req),
      dispatcher: engineDispatcher,
      signal: req.signal ? AbortSignal.any([req.signal, deadline]) : deadline,
    });
    const text = await readCapped(response, label, MAX_ANSWER_BYTES);
    if (!response.ok) throw statusError(label, response.status, text);
    return parseAnswer(label, text, answer, 'in the expected shape');
  } catch (err) {
    throw requestFailure(err, label, 'request', req, deadline);
  }
}
