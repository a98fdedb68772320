// Worker tooling over HTTP (used by the order-ops CLI). Guarded by the operator token.
// Files travel by claim-check: uploaded once into the file store, then named by key in updates.
import express, { type Router } from 'express';
import { z } from 'zod';
import type { ApiDeps } from '../context.js';
import { tasksOfOrder } from '../../db/tasks.js';
import { taskView } from './workforce.js';
import { requireOperator } from '../auth.js';
import { RequestError } from '../../contracts/failures.js';
import { booleanParam, httpUrl } from '../../products/params.js';
import { parseOrderId } from './records.js';
import { createAccount, rotateWebhookSecret, topUpWallet, webhookSecretsOf, type WebhookSecrets } from '../../db/accounts.js';
import { grantAiMinutes } from '../../db/wallet.js';
import { callbackAttemptsOf, filesOf, pendingOrders } from '../../db/orders.js';
import type { CallbackAttemptRow, OrderRow } from '../../db/schema.js';
import { isProductKey, orderResultKinds, workPlanOfOrder } from '../../products/registry.js';
import { PATCH_MARKERS } from '../../workflows/patches.js';
import { firstRelease } from '../../db/releases.js';
import { RESULT_KINDS } from '../../domain/resultKinds.js';
import { centsToUsd, usdToCents } from '../../domain/pricing.js';
import { formatUtc } from '../../domain/time.js';
import { createFulfilment } from '../../orders/fulfil.js';
import { orderProgress } from '../../orders/progress.js';
import { caseSensitiveRouter } from '../../http/router.js';
import { deleteOrderData } from '../../orders/deleteOrder.js';

const usd = z.coerce
  .number({ error: 'must be an amount in USD' })
  .nonnegative('must not be negative')
  .transform((v, ctx) => {
    try {
      return usdToCents(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a whole number of cents' });
      return z.NEVER;
    }
  });

const newAccount = z.strictObject({
  name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty'),
  balance: usd.optional(),
  created_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  callback_url: httpUrl.optional(),
  canceled_callbacks: booleanParam.optional(),
});
const topUp = z.strictObject({ amount: usd.refine((c) => c > 0, 'must be positive') });
const rotation = z.strictObject({
  window_hours: z.coerce
    .number({ error: 'must be a number of hours' })
    .nonnegative('must not be negative')
    .max(24 * 90, 'must be at most 90 days')
    .default(24),
});
/** An account's callback signing secrets as operators see them. */
const secretsView = (accountId: number, s: WebhookSecrets) => ({
  account_id: accountId,
  webhook_secret: s.current,
  ...(s.previous ? { previous_webhook_secret: s.previous.secret, previous_valid_until: s.previous.until.toISOString() } : {}),
});
const grant = z.strictObject({
  minutes: z.coerce.number({ error: 'must be a number of minutes' }).int('must be whole minutes').positive('must be positive').max(10_000_000),
});
const resultFile = z.strictObject({
  kind: z.enum(RESULT_KINDS as [string, ...string[]], { error: `must be one of ${RESULT_KINDS.join(', ')}` }),
  key: z.string().regex(/^[0-9a-f]{64}$/, 'must be a file key from PUT /ops/files'),
  file_name: z.string().min(1).max(255),
});
const filesBody = z.strictObject({ files: z.array(resultFile).min(1, 'needs at least one file') });
const refundBody = z.strictObject({ reason: z.string().max(1000).optional() });
const qcBody = z.union([z.strictObject({ pass: z.literal(true) }), z.strictObject({ fix: z.array(resultFile).min(1) })], {
  error: 'send {"pass": true} or {"fix": [files]}',
});

const toClaims = (files: z.infer<typeof resultFile>[]) => files.map((f) => ({ kind: f.kind, blobKey: f.key, fileName: f.file_name }));

function parseAccountId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new RequestError(`account_id: '${raw}' is not an account id`);
  return Number(raw);
}

/** The last callback attempt, and when the next is due if it failed and one is planned. */
function lastCallback(attempts: CallbackAttemptRow[]) {
  const last = attempts.at(-1);
  if (!last) return null;
  return { event: last.event, outcome: last.outcome, at: last.createdAt.toISOString(), next_attempt_at: last.nextAttemptAt?.toISOString() ?? null };
}

/** What an operator sees of an order: its state, what it delivers, and who is working on it. */
function summary(o: OrderRow) {
  return {
    order_id: o.id,
    account_id: o.accountId,
    product: o.product,
    status: o.status,
    assignee: o.assignee,
    result_kinds: orderResultKinds(o),
    seconds: o.seconds,
    words: o.words,
    price: centsToUsd(o.priceCents),
    paid_at: o.paidAt && formatUtc(o.paidAt),
    delivery_estimate: o.deliveryEstimate && formatUtc(o.deliveryEstimate),
    params: o.params,
    input_files: Object.fromEntries(Object.entries(o.inputFiles).map(([name, f]) => [name, { key: f.key, file_name: f.fileName }])),
    ...(o.retranscribedOrderId !== null ? { retranscribed_order_id: o.retranscribedOrderId } : {}),
    ...(o.parentOrderId !== null ? { parent_order_id: o.parentOrderId } : {}),
    late: o.lateAt !== null,
    ...(o.handedOverAt ? { handed_over: { at: formatUtc(o.handedOverAt), reason: o.handedOverReason } } : {}),
    ...(o.lateAt ? { late_at: formatUtc(o.lateAt) } : {}),
    ...(o.engineNote ? { engine_note: o.engineNote } : {}),
    ...(o.mediaNote ? { media_note: o.mediaNote } : {}),
    ...(o.draftEditRate !== null ? { draft_edit_rate: Math.round(o.draftEditRate * 1000) / 1000 } : {}),
    ...(o.deleteAfterSeconds !== null ? { delete_after_seconds: o.deleteAfterSeconds } : {}),
    ...(o.deletedAt ? { deleted_at: formatUtc(o.deletedAt) } : {}),
  };
}

export function opsRouter(deps: ApiDeps): Router {
  const router = caseSensitiveRouter();
  router.use('/ops', requireOperator(deps.opsToken));

  const fulfilment = createFulfilment(deps);
  const requireOrder = (rawId: string) => fulfilment.requireOrder(parseOrderId(rawId));

  router.post('/ops/accounts', async (req, res) => {
    const input = newAccount.parse(req.body ?? {});
    const created = await createAccount(deps.db, deps.secretKey, {
      name: input.name,
      balanceCents: input.balance ?? 0,
      createdAt: input.created_at ? new Date(input.created_at) : undefined,
      callbackUrl: input.callback_url ?? null,
      canceledCallbacks: input.canceled_callbacks,
    });
    deps.log('account created', { accountId: created.accountId });
    res.json({ account_id: created.accountId, api_token: created.apiToken, webhook_secret: created.webhookSecret });
  });

  router.get('/ops/accounts/:id/webhook-secret', async (req, res) => {
    const accountId = parseAccountId(req.params.id);
    res.json(secretsView(accountId, await webhookSecretsOf(deps.db, deps.secretKey, accountId)));
  });

  router.post('/ops/accounts/:id/webhook-secret/rotate', async (req, res) => {
    const accountId = parseAccountId(req.params.id);
    const { window_hours } = rotation.parse(req.body ?? {});
    const rotated = await rotateWebhookSecret(deps.db, deps.secretKey, accountId, Math.round(window_hours * 3_600_000));
    deps.log('webhook secret rotated', { accountId, windowHours: window_hours });
    res.json(secretsView(accountId, rotated));
  });

  router.post('/ops/accounts/:id/topup', async (req, res) => {
    const accountId = parseAccountId(req.params.id);
    const { amount } = topUp.parse(req.body ?? {});
    const balance = await topUpWallet(deps.db, accountId, amount, 'operator top-up');
    res.json({ account_id: accountId, in_wallet: centsToUsd(balance) });
  });

  // The release this database first ran, and the open workflows started before it (0.x's, which
  // 1.0 does not take over: none, and nothing of 0.x is left running); then, per patch since, the
  // open workflows that started before it shipped, and those that recorded its marker
  // (TemporalChangeVersion): none of the first, no workflow can still take the old branch and it
  // may be deprecated; none of either, the patch may be removed (docs/decisions/workflow-versions-and-patches.md).
  // Only this service's workflows (its task queue) count: a namespace may hold others'.
  router.get('/ops/patches', async (_req, res) => {
    const running = async (condition: string) =>
      (await deps.temporal.workflow.count(`ExecutionStatus = "Running" AND TaskQueue = "${deps.taskQueue}" AND ${condition}`)).count;
    const release = await firstRelease(deps.db);
    const patches = await Promise.all(
      PATCH_MARKERS.map(async (patch) => {
        const [before, withMarker] = await Promise.all([running(`StartTime < "${patch.since}T00:00:00Z"`), running(`TemporalChangeVersion = "${patch.id}"`)]);
        return {
          patch: patch.id,
          since: patch.since,
          change: patch.change,
          open_workflows_started_before: before,
          open_workflows_with_marker: withMarker,
          may_deprecate: before === 0,
          may_remove: before === 0 && withMarker === 0,
        };
      }),
    );
    res.json({
      release: {
        version: release.version,
        since: release.releasedAt.toISOString(),
        open_workflows_started_before: await running(`StartTime < "${release.releasedAt.toISOString()}"`),
      },
      patches,
    });
  });

  router.get('/ops/orders/pending', async (req, res) => {
    const product = typeof req.query.product === 'string' ? req.query.product : undefined;
    if (product !== undefined && !isProductKey(product)) throw new RequestError(`product: '${product}' is not a product`);
    const orders = await pendingOrders(deps.db, product);
    res.json({ orders: orders.map(summary) });
  });

  router.post('/ops/accounts/:id/ai-minutes', async (req, res) => {
    const accountId = parseAccountId(req.params.id);
    const { minutes } = grant.parse(req.body ?? {});
    res.json({ account_id: accountId, ai_transcripts_minutes_left: await grantAiMinutes(deps.db, accountId, minutes, 'operator grant') });
  });

  router.get('/ops/orders/:id', async (req, res) => {
    const order = await requireOrder(req.params.id);
    // The workflow knows whether an engine is at work; one that does not answer, nobody is.
    const progress = await orderProgress(deps.temporal, order.id);
    const files = await filesOf(deps.db, order.id);
    const attempts = await callbackAttemptsOf(deps.db, order.id);
    const work = workPlanOfOrder(order);
    res.json({
      ...summary(order),
      finished_at: order.finishedAt && formatUtc(order.finishedAt),
      quality_check: order.qcStatus,
      working_on: progress?.workingOn ?? 'nobody',
      ...(progress?.engine ? { engine_progress: progress.engine } : {}),
      files: files.map((f) => ({ kind: f.kind, key: f.blobKey, file_name: f.fileName, version: f.version })),
      callback_attempts: attempts.length,
      last_callback: lastCallback(attempts),
      // The people's part of the order's plan (kept on it since placement), then its tasks so far.
      ...(work
        ? {
            work: {
              skill: work.skill,
              review_skill: work.reviewSkill,
              stages: work.stages,
              pay_unit: work.payUnit,
            },
          }
        : {}),
      tasks: (await tasksOfOrder(deps.db, order.id)).map((t) => taskView(t)),
    });
  });

  router.get('/ops/orders/:id/callbacks', async (req, res) => {
    const attempts = await callbackAttemptsOf(deps.db, parseOrderId(req.params.id));
    res.json({
      attempts: attempts.map((a) => ({
        event: a.event,
        attempt: a.attempt,
        at: a.createdAt.toISOString(),
        url: a.url,
        status_code: a.statusCode,
        duration_ms: a.durationMs,
        outcome: a.outcome,
        detail: a.detail,
        webhook_id: a.webhookId,
        next_attempt_at: a.nextAttemptAt?.toISOString() ?? null,
      })),
    });
  });

  router.put('/ops/files', express.raw({ type: () => true, limit: '512mb' }), async (req, res) => {
    const body = req.body as Buffer;
    if (!Buffer.isBuffer(body) || body.length === 0) throw new RequestError('the file is empty');
    const key = await deps.files.put(body);
    res.json({ key, bytes: body.length });
  });

  router.post('/ops/orders/:id/complete', async (req, res) => {
    const { files } = filesBody.parse(req.body ?? {});
    res.json(await fulfilment.complete(parseOrderId(req.params.id), toClaims(files)));
  });
  router.post('/ops/orders/:id/refund', async (req, res) => {
    const { reason } = refundBody.parse(req.body ?? {});
    res.json(await fulfilment.refund(parseOrderId(req.params.id), reason));
  });
  router.post('/ops/orders/:id/reject-transcript', async (req, res) => {
    res.json(await fulfilment.rejectTranscript(parseOrderId(req.params.id)));
  });
  router.post('/ops/orders/:id/cancel', async (req, res) => {
    res.json(await fulfilment.cancel(parseOrderId(req.params.id)));
  });
  // A customer who writes in to have an order's data deleted (issue 53): as their own DELETE would.
  router.delete('/ops/orders/:id', async (req, res) => {
    const { order, closedWorkflow } = await deleteOrderData(deps, await requireOrder(req.params.id), 'operator');
    res.json({ ...summary(order), closed_workflow: closedWorkflow });
  });
  router.post('/ops/orders/:id/qc', async (req, res) => {
    const decision = qcBody.parse(req.body ?? {});
    res.json(await fulfilment.qualityCheck(parseOrderId(req.params.id), 'pass' in decision ? { pass: true } : { fix: toClaims(decision.fix) }));
  });
  return router;
}
