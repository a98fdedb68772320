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
