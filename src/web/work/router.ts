// The workbench (/work): pages for the people who do the human work. Mounted by src/api/app.ts;
// answers every /work path itself (HTML errors included).
import type { Router } from 'express';
import type { WebDeps } from '../context.js';
import { PageError, webErrorHandler } from '../errors.js';
import { assets } from '../router.js';
import { earningsRouter } from './earnings.js';
import { queueRouter } from './queue.js';
import { requireWorker, WORK_PATH } from './session.js';
import { workSignInRouter } from './signIn.js';
import { taskRouter } from './task.js';
import { settingsRouter } from './settings.js';
import { caseSensitiveRouter } from '../../http/router.js';

export function workbench(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  router.get('/assets/:name', assets());
  router.use(workSignInRouter(deps));
  router.use(requireWorker(deps));
  router.get('/', (_req, res) => void res.redirect(303, `${WORK_PATH}/queue`));
  router.use(queueRouter(deps));
  router.use(taskRouter(deps));
  router.use(earningsRouter(deps));
  router.use(settingsRouter(deps));
  router.use(() => {
    throw new PageError(404, 'There is no such page in the workbench.');
  });
  router.use(webErrorHandler(deps.log));
  return router;
}
