// Checks an uploaded result file before it is accepted for an order: it must read, and hold
// what its kind needs (times for captions, word timings for an alignment).
import { RESULT_KIND_DEFINITIONS, type ResultKind } from '../domain/resultKinds.js';
import { buildCues, renderAlignment } from '../domain/render/captions.js';
import { importDocument } from './importers.js';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './limits.js';

export async function checkResultFile(kind: ResultKind, bytes: Uint8Array, fileName: string, limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): Promise<void> {
  const transcript = await importDocument(bytes, fileName, limits);
  const { needs } = RESULT_KIND_DEFINITIONS[kind];
  if (needs === 'cues') buildCues(transcript);
  if (needs === 'words') renderAlignment(transcript);
}
