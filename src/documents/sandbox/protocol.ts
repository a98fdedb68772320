// The messages between the pool (parent) and a child that opens files, and how errors cross:
// only the kinds a caller acts on, with messages meant for customers; anything else becomes
// "not readable" here and is logged, with its internal message, in the child.
import { TranscriptImportError } from '../../domain/transcript.js';
import { TimingError } from '../../domain/render/captions.js';
import { DocumentRefusedError, type RefusalReason } from '../limits.js';

export type JobOp =
  | 'documentWords'
  | 'ocrEstimate'
  | 'importDocument'
  | 'checkResultFile'
  | 'renderResult'
  | 'renderPdfPage'
  | 'ocrPages'
  | 'mediaDuration'
  | 'mediaDurationByRanges';

export interface JobRequest {
  id: number;
  op: JobOp;
  args: unknown[];
}
/** A chunk of a job's input stream, or its end. */
export interface JobInput {
  id: number;
  chunk?: Uint8Array;
  end?: true;
}
export type JobReply = { id: number; ok: unknown } | { id: number; error: JobError };
/** From the child: bytes [start, end) of the job's file are wanted (a media file read by ranges). */
export interface JobRead {
  id: number;
  read: { seq: number; start: number; end: number };
}
/** To the child: a block of the job's file (`at` its offset) holding what a JobRead asked, or that it cannot be had. */
export interface JobBlock {
  id: number;
  seq: number;
  at?: number;
  chunk?: Uint8Array;
  failed?: true;
}
/** The parent's side of a file read by ranges: the block holding [start, end), fetched as it decides. */
export interface BlockSource {
  block(start: number, end: number): Promise<{ at: number; bytes: Uint8Array }>;
}
/** From the child: the job's next page began, and with it a new CPU budget (OCR, pool.ts). */
export interface JobStep {
  id: number;
  step: true;
}

export interface JobError {
  kind: 'refused' | 'import' | 'timing' | 'media';
  message: string;
  reason?: RefusalReason;
}

export interface MediaInput {
  mimeType?: string;
  size?: number;
  scanWholeFile: boolean;
}
/** A media file read by ranges: its size (from the first ranged answer) and its type. */
export interface RangedMediaInput {
  mimeType?: string;
  size: number;
}
export interface MediaFormat {
  container?: string;
  duration?: number;
}
/** The container of a duration the file's header stated (the rest of the file was not read). */
export const STATED_IN_HEADER = 'stated in header';

/** A media file that holds no audio or video the parser knows (the probe answers the customer). */
export class NotMediaError extends Error {}

export function serializeError(err: unknown): JobError | undefined {
  if (err instanceof DocumentRefusedError) return { kind: 'refused', message: err.message, reason: err.reason };
  if (err instanceof TranscriptImportError) return { kind: 'import', message: err.message };
  if (err instanceof TimingError) return { kind: 'timing', message: err.message };
  if (err instanceof NotMediaError) return { kind: 'media', message: err.message };
  return undefined;
}

export function reviveError(e: JobError): Error {
  switch (e.kind) {
    case 'refused':
      return new DocumentRefusedError(e.reason ?? 'crashed', e.message);
    case 'import':
      return new TranscriptImportError(e.message);
    case 'timing':
      return new TimingError(e.message);
    case 'media':
      return new NotMediaError(e.message);
  }
}
