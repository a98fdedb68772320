// The worker's queue: the tasks they may take (their skills, soonest deadline first) and the
// tasks they hold; "Claim next task" takes the first one nobody else claimed first.
import type { Router } from 'express';
import type { WebDeps } from '../context.js';
import type { TaskRow } from '../../db/schema.js';
import { STAGES } from '../../contracts/tasks.js';
import { claimNextTask, claimTask, queueFor, TaskRefusedError } from '../../orders/tasks.js';
import { isProductKey, PRODUCTS } from '../../products/registry.js';
import { sendPage } from '../errors.js';
import { usd } from '../format.js';
import { html, type Html } from '../html.js';
import { alert, csrfInput, layout, notice } from '../layout.js';
import { takeFlash, setFlash } from '../session.js';
import { signedWorker, WORK_PATH } from './session.js';
import { caseSensitiveRouter } from '../../http/router.js';

export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return `${h > 0 ? `${h}:` : ''}${String(m).padStart(h > 0 ? 2 : 1, '0')}:${String(r).padStart(2, '0')}`;
}

export function timeLeft(deadline: Date, now = Date.now()): string {
  const minutes = Math.round((deadline.getTime() - now) / 60_000);
  const span = (m: number) => (m >= 120 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m} min`);
  return minutes >= 0 ? span(minutes) : `late by ${span(-minutes)}`;
}

export const productLabel = (product: string): string => (isProductKey(product) ? PRODUCTS[product].label : product);

/** Audio length for media work; words for documents. */
export function taskSize(task: TaskRow): string {
  const seconds = task.spanEnd - task.spanStart;
  return seconds > 0 ? clock(seconds) : `${task.words} words`;
}

function taskTitle(task: TaskRow): string {
  const part = task.partNo > 0 ? ` · part ${task.partNo} (${clock(task.spanStart)}–${clock(task.spanEnd)})` : '';
  return `${STAGES[task.stage].label}: ${productLabel(task.product)}, order ${task.orderId}${part}`;
}

function rows(tasks: TaskRow[], action: (t: TaskRow) => Html): Html {
  return html`${tasks.map(
    (t) => html`<tr>
<td><a href="${WORK_PATH}/tasks/${t.id}">${taskTitle(t)}</a></td><td>${t.skill}</td><td>${taskSize(t)}</td>
<td>${timeLeft(t.deadline)}</td><td>${usd(t.payCents)}</td><td>${action(t)}</td></tr>`,
  )}`;
}

const HEAD = html`<thead><tr><th scope="col">Task</th><th scope="col">Skill</th><th scope="col">Length</th><th scope="col">Time left</th><th scope="col">Pay</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>`;

const FLASH: Record<string, string> = {
  'nothing-to-claim': 'There is no task for your skills right now.',
  submitted: 'Submitted. Thank you: a reviewer takes it from here.',
  approved: 'Approved.',
  'sent-back': 'Sent back to the worker with your note.',
  released: 'The task is back in the queue.',
};

/** Why a claim was refused (the flash carries only the code). */
const REFUSED: Record<string, string> = {
  'refused-state': 'Another worker claimed that task first.',
  'refused-own-work': 'That task checks work you did on the order: another worker reviews it.',
  'refused-held': 'You hold as many tasks as you may: submit one or give it back before you claim another.',
};

export function queueRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();

  router.get('/queue', async (req, res) => {
    const { worker, csrf } = signedWorker(res);
    const { waiting, claimed } = await queueFor(deps, worker);
    const flash = takeFlash(req, res, deps.publicBaseUrl);
    const refused = flash ? REFUSED[flash] : undefined;
    sendPage(
      res,
      200,
      layout({
        area: 'work',
        title: 'Queue',
        csrf,
        current: 'queue',
        body: html`<h1>Queue</h1>
<p>Signed in as ${worker.name}. Skills: ${worker.skills.join(', ')}.</p>
${notice(flash && !refused ? FLASH[flash] : undefined)}${alert(refused)}
<form method="post" action="${WORK_PATH}/claim-next">${csrfInput(csrf)}<button type="submit">Claim next task</button></form>
<h2>Your tasks</h2>
${claimed.length ? html`<table>${HEAD}<tbody>${rows(claimed, (t) => html`<a href="${WORK_PATH}/tasks/${t.id}">Open</a>`)}</tbody></table>` : html`<p>You hold no task.</p>`}
<h2>Tasks you can take</h2>
${
  waiting.length
    ? html`<table>${HEAD}<tbody>${rows(waiting, (t) => html`<form method="post" action="${WORK_PATH}/tasks/${t.id}/claim">${csrfInput(csrf)}<button type="submit" aria-label="Claim ${taskTitle(t)}">Claim</button></form>`)}</tbody></table>`
    : html`<p>No task waits for your skills.</p>`
}`,
      }),
    );
  });

  router.post('/claim-next', async (req, res) => {
    let task;
    try {
      task = await claimNextTask(deps, signedWorker(res).worker);
    } catch (err) {
      if (!(err instanceof TaskRefusedError)) throw err;
      setFlash(req, res, deps.publicBaseUrl, `refused-${err.why}`);
      return void res.redirect(303, `${WORK_PATH}/queue`);
    }
    if (!task) {
      setFlash(req, res, deps.publicBaseUrl, 'nothing-to-claim');
      return void res.redirect(303, `${WORK_PATH}/queue`);
    }
    res.redirect(303, `${WORK_PATH}/tasks/${task.id}`);
  });

  router.post('/tasks/:id/claim', async (req, res) => {
    const id = String(req.params.id);
    try {
      await claimTask(deps, signedWorker(res).worker, id);
    } catch (err) {
      if (!(err instanceof TaskRefusedError)) throw err;
      setFlash(req, res, deps.publicBaseUrl, `refused-${err.why}`);
      return void res.redirect(303, `${WORK_PATH}/queue`);
    }
    res.redirect(303, `${WORK_PATH}/tasks/${id}`);
  });
  return router;
}
