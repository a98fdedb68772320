// A finished order's result file as a download: the format asked (or the order's first), rendered in
// the document sandbox and cached, with an ETag, never as a page of this origin. Shared by the API's
// file route (src/api/routes/files.ts) and the account area's links (src/web/), so both serve the
// same bytes. A rendering that fails is answered 422 naming why, and remembered: a retry is
// answered at once, never by another 30 s of a reader's CPU (issue 41).
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { RequestError } from '../contracts/failures.js';
import type { Db } from '../db/connection.js';
import { getOrderFile } from '../db/orders.js';
import type { OrderRow } from '../db/schema.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import { DocumentRefusedError } from '../documents/limits.js';
import type { ResultFormat } from '../domain/formats.js';
import { RENDERER_VERSION, TimingError, type RenderedFile } from '../domain/render/index.js';
import { TranscriptImportError } from '../domain/transcript.js';
import { installedFontFamilies } from '../documents/fonts.js';
import { isResultKind, RESULT_KIND_DEFINITIONS, RESULT_KINDS, type ResultKind } from '../domain/resultKinds.js';
import { orderResult } from '../products/registry.js';
import { resultLanguage } from '../products/shared.js';
import type { FileStore } from '../storage/fileStore.js';
import { RenderCache } from './renderCache.js';
import { pdfCharactersDropped, pdfCharactersMissing, renderingsFailed } from '../metrics.js';

const CACHE_BYTES = 64 * 1024 * 1024;
/** Failed renderings remembered per app (the oldest forgotten first): a key and a sentence each. */
const FAILURES_KEPT = 1_000;

/** A result file that cannot be rendered in a format: the stored file is the problem, so another request gets the same. */
export class RenderFailedError extends RequestError {
  constructor(message: string) {
    super(message, 422);
  }
}

/** What an app keeps of its renderings: the files, the renderings under way (one per key), the failures. */
interface Renderings {
  cache: RenderCache;
  pending: Map<string, Promise<RenderedFile>>;
  failed: Map<string, RenderFailedError>;
}

/** One per app (keyed by its deps), shared by the API route and the account area. */
const renderingsByApp = new WeakMap<object, Renderings>();
function renderingsOf(deps: object): Renderings {
  let r = renderingsByApp.get(deps);
  if (!r) renderingsByApp.set(deps, (r = { cache: new RenderCache(CACHE_BYTES), pending: new Map(), failed: new Map() }));
  return r;
}

/** Why a rendering failed, where it would fail again for the same file (a limit, the file itself); else undefined (busy, stopping). */
function failureReason(err: unknown): string | undefined {
  if (err instanceof DocumentRefusedError) return err.reason;
  if (err instanceof TimingError) return 'timing';
  if (err instanceof TranscriptImportError) return 'unreadable';
  return undefined;
}

/**
 * The rendering of `key`: from the cache, from a rendering of it under way, or `render` run once.
 * A failure that would come again (failureReason) is remembered as the error `failed` makes of it.
 */
function renderingOf(
  r: Renderings,
  key: string,
  render: () => Promise<RenderedFile>,
  failed: (err: Error, reason: string) => RenderFailedError,
): Promise<RenderedFile> {
  const known = r.failed.get(key);
  if (known) return Promise.reject(known);
  let pending = r.pending.get(key);
  if (!pending) {
    pending = r.cache
      .get(key, render)
      .catch((err: unknown) => {
        const reason = failureReason(err);
        if (!reason) throw err;
        const failure = failed(err as Error, reason);
        if (r.failed.size >= FAILURES_KEPT) r.failed.delete(r.failed.keys().next().value!);
        r.failed.set(key, failure);
        throw failure;
      })
      .finally(() => r.pending.delete(key));
    r.pending.set(key, pending);
  }
  return pending;
}

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
  if (order.deletedAt) throw new RequestError(`order ${id}: its data was deleted at ${order.deletedAt.toISOString()}`, 410);
  const result = orderResult(order, kind);
  if (!result) throw new RequestError(`kind: order ${id} has no ${kind} file (a ${order.product} order)`);
  const definition = RESULT_KIND_DEFINITIONS[kind];
  const format = checkFormat(kind, rawFormat, result.formats);
  const file = order.status === 'finished' ? await getOrderFile(deps.db, id, kind) : undefined;
  if (!file) throw new RequestError(`order ${id} has no ${kind} file yet (the order is ${order.status})`);

  const timestamping = definition.timestamped ? (order.params.timestamping ?? 'not_required') : 'not_required';
  const title = `Order ${id} ${kind.replace(/_/g, ' ')}`;
  const { language, direction } = resultLanguage(order.params);
  // Everything the rendering depends on: a quality fix changes the content key, a new renderer its
  // version, installed fonts a PDF.
  const fonts = format === 'pdf' ? installedFontFamilies() : '';
  const key = [RENDERER_VERSION, file.blobKey, file.fileName, kind, format, timestamping, title, language, direction, fonts].join('\n');
  const etag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 32)}"`;
  res.set('Cache-Control', 'private, no-cache');
  if (req.headers['if-none-match'] === etag) return void res.set('ETag', etag).status(304).end();

  const render = async () => {
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
    if (fresh.droppedCharacters) {
      // A hostile run (thousands of marks on a letter, a line of megabytes without a break): drawn as a browser would, the rest left out.
      pdfCharactersDropped.inc(fresh.droppedCharacters);
      deps.log('characters past the PDF layout caps left out', { orderId: id, kind, format, count: fresh.droppedCharacters });
    }
    return fresh;
  };
  const failed = (err: Error, reason: string) => {
    renderingsFailed.inc({ format, reason });
    deps.log('a result file could not be rendered', { orderId: id, kind, format, reason, error: err.message });
    const others = result.formats.filter((f) => f !== format);
    return new RenderFailedError(
      `format: the ${kind} file cannot be rendered as ${format}: ${err.message}${others.length ? `; ask for another format (${others.join(', ')})` : ''}`,
    );
  };
  const rendered = await renderingOf(renderingsOf(deps), key, render, failed);
  // Only a rendering has an ETag: a client never holds a failure as the file.
  sendRendered(res.set('ETag', etag), rendered, id, kind);
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
