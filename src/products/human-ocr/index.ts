// Operation 8: a person types the text of a scanned or photographed document (DOCX, PDF or an
// image). Priced by words: counted where the file has text, estimated per page for scans.
import { z } from 'zod';
import { RequestError } from '../../contracts/failures.js';
import { callbackUrlParam, httpUrl, languageParam, vocabularyParam } from '../params.js';
import { cents, finishedOnlyCallback, perThousandWords } from '../shared.js';
import { defineProduct } from '../types.js';
import { EXAMPLE_FILES } from '../examples.js';

const LABEL = 'human OCR';

const ocrRequest = z.strictObject({
  url: httpUrl,
  // The spec lists no OCR languages; typists work in the human transcription set (docs/decisions/input-files.md).
  language: languageParam('HT', LABEL),
  vocabulary: vocabularyParam,
  callback_url: callbackUrlParam,
});

export const humanOcr = defineProduct({
  key: 'human_ocr',
  label: LABEL,
  path: 'human-ocr',
  recordType: 'human_ocr',
  request: ocrRequest,
  fulfilment: 'operator',
  work: {
    skill: (p) => `ocr:${p.language}`,
    reviewSkill: (p) => `review:${p.language}`,
    editor: 'ocr',
    sourceFile: 'source',
    draft: 'engine',
    pay: 'word',
    rules: () => ({ timestamping: 'not_required' }),
  },
  creationFields: ['words'],
  prices: z.object({ per_1000_words_cents: cents, minimum_cents: cents }),
  async measure(request, tools) {
    const file = await tools.fetchFile(request.url, 'url');
    if (file.fileClass !== 'document' && file.fileClass !== 'image') {
      throw new RequestError('url: human OCR takes a DOCX or PDF document or an image (PNG, JPEG, GIF, TIFF, WebP or BMP)');
    }
    return { seconds: 0, words: await tools.ocrWords(file, 'url'), keep: { source: file } };
  },
  price: (prices, _request, measured) => Math.max(prices.minimum_cents, perThousandWords(measured.words, prices.per_1000_words_cents)),
  turnaroundHours: () => 48,
  results: () => [{ kind: 'human_ocr', field: 'human_ocr_url' }],
  recordFields: (params) => ({ language: params.language }),
  callbackFields: (context) => finishedOnlyCallback(context, () => ({ human_ocr_url: context.url('human_ocr') })),
  example: { url: EXAMPLE_FILES.image, language: 'english' },
  samples: [{ id: 10, status: 'finished', priceCents: 250, seconds: 0, words: 480, params: { language: 'english' } }],
});
