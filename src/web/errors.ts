// Failures of the account area are HTML pages (the API's JSON error mapper is for /api/ only).
import { randomBytes } from 'node:crypto';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { z } from 'zod';
import { RequestError } from '../contracts/failures.js';
import { describeZodError } from '../http/zodErrors.js';
import { loggedPath } from '../http/loggedPath.js';
import { FetchError } from '../net/outbound.js';
import { html } from './html.js';
import { alert, layout, type Area } from './layout.js';

/** A refusal the account area shows as a page with this status and message. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The same answer for another account's order and for no order at all. */
export const orderNotFound = () => new PageError(404, 'There is no such order in this account.');

/** A nonce for this response's style sheets (CSP `style-src`), kept for pageHeaders; the page hands it to the script that writes them. */
export function styleNonce(res: Response): string {
  res.locals.styleNonce ??= randomBytes(18).toString('base64');
  return String(res.locals.styleNonce);
}

/**
 * Security and caching headers of every page of the account area and the workbench: private, no
 * framing, scripts, styles, images and the workbench's player from here only.
 */
export function pageHeaders(res: Response): Response {
  // A page whose script writes its own style sheet (the transcript editor's) names it by this response's nonce.
  const nonce: unknown = res.locals.styleNonce;
  const styles = typeof nonce === 'string' ? `'self' 'nonce-${nonce}'` : "'self'";
  return res.set({
    'Content-Security-Policy':
      `default-src 'none'; script-src 'self'; style-src ${styles}; img-src 'self'; media-src 'self'; connect-src 'self'; ` +
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

const TITLES: Record<number, string> = {
  400: 'Not accepted',
  403: 'Refused',
  404: 'Not found',
  410: 'Gone',
  429: 'Too many attempts',
  500: 'Something went wrong',
};

/** Where an area's error page leads back to; a shared page leads nowhere (it shows nothing of the account). */
const HOME: Record<Area, [string, string] | undefined> = {
  account: ['/account/orders', 'Back to your orders'],
  work: ['/work/queue', 'Back to the queue'],
  shared: undefined,
};

/** The area a request is in: the workbench's pages under /work, a share link's under /shared, the account area's otherwise. */
export const areaOf = (req: Request): Area => (req.baseUrl === '/work' ? 'work' : req.baseUrl === '/shared' ? 'shared' : 'account');

/** A refusal in the area's own layout; `csrf` of the session when someone is signed in (their navigation shows). */
export function errorPage(status: number, message: string, csrf?: string, area: Area = 'account'): string {
  const title = TITLES[status] ?? 'Error';
  const home = HOME[area];
  const link = home ? html`<p><a href="${home[0]}">${home[1]}</a></p>` : '';
  return layout({ title, csrf, area, noindex: area === 'shared', body: html`<h1>${title}</h1>${alert(message)}${link}` });
}

export function webErrorHandler(log: (message: string, meta: object) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const csrf = (res.locals.signed as { csrf?: string } | undefined)?.csrf;
    let status: number;
    let message: string;
    if (err instanceof PageError || err instanceof RequestError) [status, message] = [err.status, err.message];
    // A validator's findings as one sentence naming the field, never its raw issue list.
    else if (err instanceof z.ZodError) [status, message] = [400, describeZodError(err)];
    else if (err instanceof FetchError) [status, message] = [400, err.message];
    else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) [status, message] = [err.status, 'The request could not be read.'];
    else {
      // The path only: a query string is never logged.
      log('request failed', { method: req.method, path: loggedPath(req.originalUrl.split('?')[0]!), error: String((err as Error)?.stack ?? err) });
      [status, message] = [500, 'The page cannot be shown now; try again later.'];
    }
    if (res.headersSent) return void res.end();
    sendPage(res, status, errorPage(status, message, csrf, areaOf(req)));
  };
}
