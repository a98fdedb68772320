// A finished order's result file as a download: the format asked (or the order's first), rendered in
// the document sandbox and cached, with an ETag, never as a page of this origin. Shared by the API's
// file route (src/api/routes/files.ts) and the account area's links (src/web/), so both serve the
// same bytes.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { RequestError } from '../contracts/failures.js';
import type { Db } from '../db/connection.js';
import { getOrderFile } from '../db/orders.js';
import type { OrderRow } from '../db/schema.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import type { ResultFormat } from '../domain/formats.js';
import type { Timestamping } from '../domain/render/layout.js';
import { RENDERER_VERSION, type RenderedFile } from '../domain/render/index.js';
import { installedFontFamilies } from '../documents/fonts.js';
import { isResultKind, RESULT_KIND_DEFINITIONS, RESULT_KINDS, type ResultKind } from '../domain/resultKinds.js';
import { orderResult } from '../products/registry.js';
import { resultLanguage } from '../products/shared.js';
import type { FileStore } from '../storage/fileStore.js';
import { RenderCache } from './renderCache.js';
import { pdfCharactersMissing } from '../metrics.js';

const CACHE_BYTES = 64 * 1024 * 1024;

/** One render cache per app (keyed by its deps), shared by the API route and the account area. */
const caches = new WeakMap<object, RenderCache>();
const cacheOf = (deps: object) => caches.get(deps) ?? caches.set(deps, new RenderCache(CACHE_BYTES)).get(deps)!;

export function checkResultKind(kind: string): ResultKind {
  if (!isResultKind(kind)) throw new RequestError(`kind: '${kind}' is not a result kind (${RESULT_KINDS.join(', ')})`);
  return kind;
}

/**
 * Answers with the order's `kind` file in `rawFormat` (default: the first the order offers), or 304
 * for a matching If-None-Match. The caller has checked that the order is the caller's.
 */
export async function sendResultFile(
  deps: { db: Db; files: FileStore; documentReader: DocumentReader; log: (message: string, meta: object) => void },
  req: Request,
  res: Response,
  order: OrderRow,
  kind: ResultKind,
  rawFormat: unknown,
): Promise<void> {
  const id = order.id;
  const result = orderResult(order, kind);
  if (!result) throw new RequestError(`kind: order ${id} has no ${kind} file (a ${order.product} order)`);
  const definition = RESULT_KIND_DEFINITIONS[kind];
  const format = checkFormat(kind, rawFormat, result.formats);
  const file = order.status === 'finished' ? await getOrderFile(deps.db, id, kind) : undefined;
  if (!file) throw new RequestError(`order ${id} has no ${kind} file yet (the order is ${order.status})`);

  const timestamping = (definition.timestamped ? (order.params.timestamping ?? 'not_required') : 'not_required') as Timestamping;
  const title = `Order ${id} ${kind.replace(/_/g, ' ')}`;
  const { language, direction } = resultLanguage(order.params);
  // Everything the rendering depends on: a quality fix changes the content key, a new renderer its
  // version, installed fonts a PDF.
  const fonts = format === 'pdf' ? installedFontFamilies() : '';
  const key = [RENDERER_VERSION, file.blobKey, file.fileName, kind, format, timestamping, title, language, direction, fonts].join('\n');
  const etag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 32)}"`;
  res.set('ETag', etag).set('Cache-Control', 'private, no-cache');
  if (req.headers['if-none-match'] === etag) return void res.status(304).end();

  const rendered = await cacheOf(deps).get(key, async () => {
    const fresh = await deps.documentReader.renderResult(kind, await deps.files.get(file.blobKey), file.fileName, format, {
      title,
      timestamping,
      language,
      direction,
    });
    const missing = fresh.missingCharacters ?? [];
    if (missing.length) {
      // Drawn as U+FFFD: a font to install (README), or a character no font has.
      pdfCharactersMissing.inc(missing.length);
      const codePoints = [...new Set(missing)].map((c) => [...c].map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' '));
      deps.log('characters no font covers, drawn as U+FFFD', {
        orderId: id,
        kind,
        format,
        language,
        count: missing.length,
        characters: codePoints.slice(0, 20),
      });
    }
    return fresh;
  });
  sendRendered(res, rendered, id, kind);
}

/** The format asked for, one of `formats` (the order's for the kind), or the first of them. */
export function checkFormat(kind: ResultKind, rawFormat: unknown, formats: readonly ResultFormat[]): ResultFormat {
  const format = (rawFormat ?? formats[0]) as ResultFormat;
  if (typeof rawFormat !== 'undefined' && !formats.includes(format)) {
    throw new RequestError(`format: must be one of ${formats.join(', ')} for a ${kind} file, got ${JSON.stringify(rawFormat)}`);
  }
  return format;
}

/** A download, never a page of this origin (an HTML result holds words people typed): nosniff and a CSP sandbox. */
export function sendRendered(res: Response, rendered: RenderedFile, id: number, kind: ResultKind): void {
  res
    .set({ 'Content-Type': rendered.contentType, 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': 'sandbox' })
    .set('Content-Disposition', `attachment; filename="order-${id}-${kind.replace(/_/g, '-')}.${rendered.extension}"`)
    .send(rendered.body);
}
