// One multipart POST to an engine endpoint of our own shape (alignment, diarization): the request's
// deadline and cancellation, and the split between what is worth retrying and what is not.
import { Agent, fetch, FormData } from 'undici';
import type { z } from 'zod';
import { readCapped } from './answer.js';
import { EngineFaultError, EngineRejectedError, type TranscribeRequest } from './types.js';

// Word timings and speaker turns of hours of speech stay well under this.
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;
// Engine work can take minutes: the request's own deadline bounds it, not undici's timers.
const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** The request's audio as a form with `fields` beside it. */
export function audioForm(req: Pick<TranscribeRequest, 'audio' | 'contentType' | 'fileName'>, fields: Record<string, string>): FormData {
  const form = new FormData();
  form.append('file', new Blob([req.audio as Uint8Array<ArrayBuffer>], { type: req.contentType ?? 'application/octet-stream' }), req.fileName);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** 400 and 422 are the engine's "cannot do this input" (EngineRejectedError); other failures are faults. */
export async function postEngineForm<T>(endpoint: string, form: FormData, answer: z.ZodType<T>, label: string,
  req: Pick<TranscribeRequest, 'timeoutMs' | 'signal'>): Promise<T> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  let response;
  try {
    response = await fetch(endpoint, { method: 'POST', body: form, dispatcher, signal: req.signal ? AbortSignal.any([req.signal, deadline]) : deadline });
  } catch (err) {
    if (req.signal?.aborted) throw err;
    throw new EngineFaultError(`${label}: ${deadline.aborted ? `timed out after ${req.timeoutMs} ms` : String((err as Error).cause ?? err)}`);
  }
  const text = await readCapped(response, label, MAX_ANSWER_BYTES);
  if (response.status === 422 || response.status === 400) {
    throw new EngineRejectedError(errorMessage(text) ?? `${label} answered ${response.status}`);
  }
  if (!response.ok) throw new EngineFaultError(`${label} answered HTTP ${response.status}${errorMessage(text) ? `: ${errorMessage(text)}` : ''}`);
  let parsed;
  try {
    parsed = answer.safeParse(JSON.parse(text));
  } catch {
    throw new EngineFaultError(`${label}: the answer is not JSON`);
  }
  if (!parsed.success) throw new EngineFaultError(`${label}: the answer is not in the expected shape`);
  return parsed.data;
}

function errorMessage(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { message?: string } }).error?.message;
  } catch {
    return undefined;
  }
}
