// Checks an uploaded result file before it is accepted for an order: it must read, and hold
// what its kind needs (times for captions, word timings for an alignment).
import type { ResultKind } from '../domain/catalog.js';
import { buildCues, renderAlignment } from '../domain/render/captions.js';
import { importDocument } from './importers.js';

export async function checkResultFile(kind: ResultKind, bytes: Uint8Array, fileName: string): Promise<void> {
  const transcript = await importDocument(bytes, fileName);
  if (kind === 'captions' || kind === 'proofread_captions' || kind === 'subtitles') buildCues(transcript);
  if (kind === 'forced_alignment') renderAlignment(transcript);
}
