// The I/O behind products' measuring (src/products/types.ts MeasureTools): customer URLs through
// the one outbound client, documents through the importers. Failures name the field.
import { probeMediaDuration } from '../net/probe.js';
import { fetchCustomerFile, type Limits } from '../net/outbound.js';
import { classifyFile, documentFileName, documentWords, estimateOcrWords } from '../documents/measure.js';
import { importDocument } from '../documents/importers.js';
import { TranscriptImportError } from '../domain/transcript.js';
import { RequestError } from '../contracts/failures.js';
import type { FetchedFile, MeasureTools } from '../products/types.js';

/** Enough of a file to recognise it by its signature. */
const SNIFF_BYTES = 64 * 1024;

async function named<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TranscriptImportError) throw new RequestError(`${field}: ${err.message}`);
    throw err;
  }
}

export function measureTools(limits: { media: Limits; documents: Limits }): MeasureTools {
  return {
    mediaSeconds: (url, field) => probeMediaDuration(url, field, limits.media),

    async fetchFile(url, field): Promise<FetchedFile> {
      const path = new URL(url).pathname;
      const fetched = await fetchCustomerFile(url, field, limits.documents, {
        bytes: SNIFF_BYTES,
        stop: (head) => classifyFile(head, undefined, path) === 'media',
      });
      const fileClass = classifyFile(fetched.bytes, fetched.contentType, path);
      return { fileClass, bytes: fetched.bytes, fileName: documentFileName(fetched.bytes, fetched.contentType, path) };
    },

    readTranscript: (file, field, accepted) => named(field, async () => {
      const extension = file.fileName.split('.').pop() ?? '';
      if (!accepted.includes(extension)) {
        throw new RequestError(`${field}: a ${extension === 'bin' ? 'file of unknown type' : `.${extension} file`} is not accepted here (accepted: ${accepted.join(', ')})`);
      }
      return importDocument(file.bytes, file.fileName);
    }),

    documentWords: (file, field) => named(field, () => documentWords(file.bytes, file.fileName)),
    ocrWords: (file, field) => named(field, async () => (await estimateOcrWords(file.bytes, file.fileName, file.fileClass)).words),
  };
}
