// Failures of the account area are HTML pages (the API's JSON error mapper is for /api/ only).
import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import { RequestError } from '../contracts/failures.js';
import { FetchError } from '../net/outbound.js';
import { html } from './html.js';
import { alert, layout } from './layout.js';
import type { Signed } from './session.js';

/** A refusal the account area shows as a page with this status and message. */
export class PageError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The same answer for another account's order and for no order at all. */
export const orderNotFound = () => new PageError(404, 'There is no such order in this account.');

/** Security and caching headers of every account page: private, no framing, scripts from here only. */
export function pageHeaders(res: Response): Response {
  return res.set({
    'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
      "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
}

export function sendPage(res: Response, status: number, page: string): void {
  pageHeaders(res).status(status).type('html').send(page);
}

const TITLES: Record<number, string> = { 400: 'Not accepted', 403: 'Refused', 404: 'Not found', 429: 'Too many attempts', 500: 'Something went wrong' };

export function errorPage(status: number, message: string, signed?: Signed): string {
  const title = TITLES[status] ?? 'Error';
  return layout({
    title, csrf: signed?.csrf,
    body: html`<h1>${title}</h1>${alert(message)}<p><a href="/account/orders">Back to your orders</a></p>`,
  });
}

export function webErrorHandler(log: (message: string, meta: object) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const signed = res.locals.signed as Signed | undefined;
    let status: number;
    let message: string;
    if (err instanceof PageError || err instanceof RequestError) [status, message] = [err.status, err.message];
    else if (err instanceof z.ZodError || err instanceof FetchError) [status, message] = [400, err.message];
    else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) [status, message] = [err.status, 'The request could not be read.'];
    else {
      // The path only: a query string is never logged.
      log('request failed', { method: req.method, path: req.originalUrl.split('?')[0], error: String((err as Error)?.stack ?? err) });
      [status, message] = [500, 'The page cannot be shown now; try again later.'];
    }
    if (res.headersSent) return void res.end();
    sendPage(res, status, errorPage(status, message, signed));
  };
}
