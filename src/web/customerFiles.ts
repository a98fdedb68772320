// What a customer supplied, served back only as what its bytes are: never sniffed into another type,
// under a CSP sandbox, so that even opened on its own it is no page of this origin; whole or by the
// ranges a player seeks with. The workbench and the account area serve their media through it.
import type { Request, Response } from 'express';
import type { WebDeps } from './context.js';

/**
 * Headers of what a customer supplied (or what was drawn from it): the type its bytes are, never
 * sniffed into another, and a CSP sandbox, so that even opened on its own it is no page of this origin.
 */
export const customerFileHeaders = (type: string) => ({
  'Content-Type': type,
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': 'sandbox',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'private, max-age=3600',
});

/**
 * The blob, whole or one `Range: bytes=a-b` (the player seeks with these). `cacheControl` replaces the
 * hour a browser may keep it (a share link's media is asked again each time: it can be stopped).
 */
export async function sendRange(req: Request, res: Response, deps: WebDeps, key: string, type: string, cacheControl?: string): Promise<void> {
  const size = await deps.files.size(key);
  res.set({ ...customerFileHeaders(type), 'Accept-Ranges': 'bytes', ...(cacheControl ? { 'Cache-Control': cacheControl } : {}) });
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
  let [start, end] = [0, size - 1];
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start > end || start >= size) return void res.status(416).set('Content-Range', `bytes */${size}`).end();
    res.status(206).set('Content-Range', `bytes ${start}-${end}/${size}`);
  }
  res.set('Content-Length', String(end - start + 1));
  if (req.method === 'HEAD' || size === 0) return void res.end();
  deps.files.stream(key, start, end).pipe(res);
}
