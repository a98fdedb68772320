// Checks an uploaded result file before it is accepted for an order: it must read, and hold
// what its formats need (times for captions, word timings for an alignment).
import type { ResultNeeds } from '../domain/resultKinds.js';
import { buildCues, renderAlignment } from '../domain/render/captions.js';
import { importDocument } from './importers.js';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './limits.js';

export async function checkResultFile(
  needs: ResultNeeds,
  bytes: Uint8Array,
  fileName: string,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<void> {
  const transcript = await importDocument(bytes, fileName, limits);
  if (needs === 'cues') buildCues(transcript);
  if (needs === 'words') renderAlignment(transcript);
}
