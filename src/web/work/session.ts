// The workbench's session realm: the account area's session code, with a worker behind the cookie.
import type { Request, RequestHandler, Response } from 'express';
import type { WebDeps } from '../context.js';
import type { WorkerRow } from '../../db/schema.js';
import { getWorker, workerIsEnabled } from '../../db/workers.js';
import { findSession } from '../../db/sessions.js';
import { parseCookies, requireRealmSession, type SessionRealm } from '../session.js';

export const WORK_SESSION_COOKIE = 'work_session';
export const WORK_PATH = '/work';

export interface SignedWorker {
  worker: WorkerRow;
  csrf: string;
  sessionId: string;
}

const workRealm: SessionRealm<WorkerRow> = {
  cookie: WORK_SESSION_COOKIE,
  signInPath: `${WORK_PATH}/sign-in`,
  // A disabled worker's sessions end with the next request.
  load: async (db, session) => (session.workerId != null ? getWorker(db, session.workerId).then((w) => (workerIsEnabled(w) ? w : undefined)) : undefined),
};

export function requireWorker(deps: WebDeps): RequestHandler {
  return requireRealmSession(deps, workRealm, (worker, csrf, sessionId) => ({ worker, csrf, sessionId }) satisfies SignedWorker);
}

export const signedWorker = (res: Response): SignedWorker => res.locals.signed as SignedWorker;

/**
 * Whether the request carries a worker's session, before its body is read (the CSRF token may be
 * in it): the routes that take a worker's text read large bodies only for a worker signed in.
 */
export async function carriesWorkerSession(db: WebDeps['db'], req: Request): Promise<boolean> {
  const id = parseCookies(req.headers.cookie).get(WORK_SESSION_COOKIE);
  return id !== undefined && (await findSession(db, id))?.workerId != null;
}
