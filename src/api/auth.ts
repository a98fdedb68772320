import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Db } from '../db/connection.js';
import type { AccountRow } from '../db/schema.js';
import { findAccountByToken } from '../db/accounts.js';
import { AuthenticationError } from '../contracts/failures.js';

export async function authenticate(db: Db, secretKey: Buffer, token: unknown): Promise<AccountRow> {
  if (token === undefined || token === '') throw new AuthenticationError('api_token: missing; send the account token');
  if (typeof token !== 'string') throw new AuthenticationError('api_token: must be a string');
  const account = await findAccountByToken(db, secretKey, token);
  if (!account) throw new AuthenticationError('api_token: invalid token');
  return account;
}

/** The operator's bearer token (order-ops), compared in constant time. */
export function requireOperator(opsToken: string): RequestHandler {
  const expected = Buffer.from(opsToken);
  return (req, _res, next) => {
    const given = Buffer.from((req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AuthenticationError('operator token missing or invalid', 401);
    next();
  };
}
