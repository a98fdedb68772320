// What a worker has earned: each approved task once, credited when its order's work was approved.
import type { Router } from 'express';
import type { WebDeps } from '../context.js';
import { earningsOf } from '../../db/workers.js';
import { sendPage } from '../errors.js';
import { usd, when } from '../format.js';
import { html } from '../html.js';
import { layout } from '../layout.js';
import { signedWorker } from './session.js';
import { caseSensitiveRouter } from '../../http/router.js';

export function earningsRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  router.get('/earnings', async (_req, res) => {
    const { worker, csrf } = signedWorker(res);
    const { totalCents, entries } = await earningsOf(deps.db, worker.id);
    sendPage(
      res,
      200,
      layout({
        area: 'work',
        title: 'Earnings',
        csrf,
        current: 'earnings',
        body: html`<h1>Earnings</h1>
<p>Total earned: <strong id="total-earned">${usd(totalCents)}</strong>. Work is paid when a reviewer approves it.</p>
${
  entries.length
    ? html`<table><thead><tr><th scope="col">Approved</th><th scope="col">Order</th><th scope="col">Task</th><th scope="col">Amount</th></tr></thead><tbody>
${entries.map((e) => html`<tr><td>${when(e.createdAt)}</td><td>${e.orderId}</td><td>${e.taskId}</td><td>${usd(e.cents)}</td></tr>`)}</tbody></table>`
    : html`<p>Nothing yet.</p>`
}`,
      }),
    );
  });
  return router;
}
