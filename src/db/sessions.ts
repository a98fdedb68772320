// Sessions of the account area and of the workbench. The cookie holds a random id; the table keeps
// its sha256, the account or the worker, the session's CSRF token and when it ends. Deleting the row signs the cookie out.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Db } from './connection.js';
import { accountSessions, type AccountSessionRow } from './schema.js';

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

export interface NewSession {
  id: string;
  csrfToken: string;
  expiresAt: Date;
}

/** Whose session it is: an account's (the account area) or a worker's (the workbench). */
export type SessionOwner = { accountId: number } | { workerId: number };

/** Starts a session; the returned id goes into the cookie and nowhere else. */
export async function createSession(db: Db, owner: SessionOwner, ttlMs: number, now = new Date()): Promise<NewSession> {
  const id = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.insert(accountSessions).values({ idHash: hashOf(id), ...owner, csrfToken, expiresAt });
  return { id, csrfToken, expiresAt };
}

/** The live session of a cookie's id; undefined when unknown, signed out or expired. */
export async function findSession(db: Db, id: string, now = new Date()): Promise<AccountSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(accountSessions)
    .where(and(eq(accountSessions.idHash, hashOf(id)), gt(accountSessions.expiresAt, now)));
  return row;
}

/** Ends every session of the account except the one whose cookie id is `keep`; how many ended. */
export async function endAccountSessions(db: Pick<Db, 'delete'>, accountId: number, keep?: string): Promise<number> {
  const ended = await db
    .delete(accountSessions)
    .where(and(eq(accountSessions.accountId, accountId), ...(keep !== undefined ? [ne(accountSessions.idHash, hashOf(keep))] : [])))
    .returning({ idHash: accountSessions.idHash });
  return ended.length;
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(accountSessions).where(eq(accountSessions.idHash, hashOf(id)));
}

/** Removes expired sessions (they are refused anyway; this keeps the table small). */
export async function expireSessions(db: Db, now = new Date()): Promise<number> {
  const gone = await db.delete(accountSessions).where(lt(accountSessions.expiresAt, now)).returning({ idHash: accountSessions.idHash });
  return gone.length;
}
