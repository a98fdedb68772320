// Query strings as clients send them. `next_page_url` carries `api_token` and `mode`, and a client
// that appends its own to every path sends each twice: a key repeated with the same value is taken
// once. Repeated with different values it stays a list, which the API refuses, naming the key.
import { parse } from 'node:querystring';
import type { RequestHandler } from 'express';
import { RequestError } from '../contracts/failures.js';

/** Express's query parser: node's querystring, with a key given again with the same value taken once. */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(parse(text))) {
    if (value === undefined) continue;
    query[key] = Array.isArray(value) && value.every((v) => v === value[0]) ? value[0]! : value;
  }
  return query;
}

/**
 * 400 for a query key given more than once with different values: which one the client meant is
 * unknown. The values are not echoed (one may be a token).
 */
export const refuseConflictingQueryKeys: RequestHandler = (req, _res, next) => {
  // Express parses the query string at each read of req.query: once here.
  const query = req.query as Record<string, unknown>;
  const conflicting = Object.keys(query).find((key) => Array.isArray(query[key]));
  next(conflicting === undefined ? undefined : new RequestError(`${conflicting}: given more than once with different values`, 400));
};
