// Operators' routes for the workbench (order-ops worker …, tasks, release, reassign, earnings):
// workers and their skills, every open task (waiting, claimed, late), and the earnings as CSV.
import type { Router } from 'express';
import { z } from 'zod';
import type { ApiDeps } from '../context.js';
import { RequestError } from '../../contracts/failures.js';
import type { TaskRow, WorkerRow } from '../../db/schema.js';
import type { TaskState } from '../../contracts/tasks.js';
import { openTasks } from '../../db/tasks.js';
import { allEarnings, createWorker, disableWorker, listWorkers, setWorkerSkills } from '../../db/workers.js';
import { formatUtc } from '../../domain/time.js';
import { parseSkills, SkillError } from '../../domain/humanWork/skills.js';
import { releaseTask } from '../../orders/tasks.js';
import { csvField } from '../../domain/csv.js';
import { requireOperator } from '../auth.js';
import { caseSensitiveRouter } from '../../http/router.js';

const skillsField = z.string({ error: 'skills: a comma-separated list such as transcription:english,review:english' }).transform((list, ctx) => {
  try {
    return parseSkills(list);
  } catch (err) {
    if (!(err instanceof SkillError)) throw err;
    ctx.addIssue({ code: 'custom', message: `skills: ${err.message}` });
    return z.NEVER;
  }
});
const newWorker = z.strictObject({ name: z.string({ error: 'name: required' }).trim().min(1, 'name: required').max(200), skills: skillsField });
const workerId = (raw: string) => {
  if (!/^\d{1,9}$/.test(raw)) throw new RequestError(`worker id must be a number, got ${raw}`);
  return Number(raw);
};

export const workerView = (w: WorkerRow) => ({
  worker_id: w.id,
  name: w.name,
  skills: w.skills,
  disabled: w.disabledAt !== null,
  created_at: formatUtc(w.createdAt),
});

export const taskView = (t: TaskRow, now = Date.now()) => ({
  task_id: t.id,
  order_id: t.orderId,
  product: t.product,
  stage: t.stage,
  part: t.partNo,
  span: [t.spanStart, t.spanEnd],
  skill: t.skill,
  status: t.status,
  claimed_by: t.claimedBy,
  claimed_at: t.claimedAt && formatUtc(t.claimedAt),
  saved_at: t.savedAt && formatUtc(t.savedAt),
  deadline: formatUtc(t.deadline),
  late: t.deadline.getTime() < now,
  lease_expiries: t.leaseExpiries,
  pay_cents: t.payCents,
});

const stateView = (taskId: string, state: TaskState) => ({ task_id: taskId, status: state.status, claimed_by: state.claimedBy });

export function workforceRouter(deps: ApiDeps): Router {
  const router = caseSensitiveRouter();
  router.use('/ops', requireOperator(deps.opsToken));

  router.post('/ops/workers', async (req, res) => {
    const input = newWorker.parse(req.body ?? {});
    const created = await createWorker(deps.db, deps.secretKey, input);
    deps.log('worker created', { workerId: created.workerId, skills: input.skills });
    res.json({ worker_id: created.workerId, sign_in_token: created.signInToken, name: input.name, skills: input.skills });
  });

  router.get('/ops/workers', async (_req, res) => void res.json({ workers: (await listWorkers(deps.db)).map(workerView) }));

  router.post('/ops/workers/:id/skills', async (req, res) => {
    const { skills } = z.strictObject({ skills: skillsField }).parse(req.body ?? {});
    const worker = await setWorkerSkills(deps.db, workerId(String(req.params.id)), skills);
    if (!worker) throw new RequestError(`worker ${req.params.id} not found`, 404);
    res.json(workerView(worker));
  });

  // Disabled: no sign-in, no claim; the tasks they hold go back to the queue (drafts kept).
  router.post('/ops/workers/:id/disable', async (req, res) => {
    const worker = await disableWorker(deps.db, workerId(String(req.params.id)));
    if (!worker) throw new RequestError(`worker ${req.params.id} not found`, 404);
    const held = (await openTasks(deps.db, { status: 'claimed' })).filter((t) => t.claimedBy === worker.id);
    for (const task of held) await releaseTask(deps, task.id, `worker ${worker.id} disabled`);
    deps.log('worker disabled', { workerId: worker.id, released: held.length });
    res.json({ ...workerView(worker), released_tasks: held.map((t) => t.id) });
  });

  router.get('/ops/tasks', async (req, res) => {
    const status = req.query.status === 'waiting' || req.query.status === 'claimed' ? req.query.status : undefined;
    const tasks = await openTasks(deps.db, { ...(status ? { status } : {}), late: req.query.late === '1' || req.query.late === 'true' });
    res.json({ tasks: tasks.map((t) => taskView(t)) });
  });

  router.post('/ops/tasks/:id/release', async (req, res) => {
    const body = z.object({ reason: z.string().max(500).optional() }).parse(req.body ?? {});
    res.json(stateView(String(req.params.id), await releaseTask(deps, String(req.params.id), body.reason ?? 'released by an operator')));
  });

  router.post('/ops/tasks/:id/reassign', async (req, res) => {
    const body = z.object({ worker_id: z.coerce.number({ error: 'worker_id: a worker id' }).int().positive() }).parse(req.body ?? {});
    res.json(
      stateView(String(req.params.id), await releaseTask(deps, String(req.params.id), `reassigned by an operator to worker ${body.worker_id}`, body.worker_id)),
    );
  });

  router.get('/ops/earnings.csv', async (req, res) => {
    const since = typeof req.query.since === 'string' && req.query.since ? new Date(req.query.since) : undefined;
    if (since && Number.isNaN(since.getTime())) throw new RequestError('since: an ISO date such as 2026-11-01');
    const rows = await allEarnings(deps.db, since);
    const lines = rows.map((r) =>
      [csvField(formatUtc(r.createdAt)), r.workerId, csvField(r.workerName), r.orderId, csvField(r.taskId), (r.cents / 100).toFixed(2)].join(','),
    );
    res.type('text/csv').send(['approved_utc,worker_id,worker_name,order_id,task_id,amount_usd', ...lines].join('\r\n') + '\r\n');
  });
  return router;
}
