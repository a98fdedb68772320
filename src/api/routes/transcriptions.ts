// Operation 1: order human transcription.
import { Router } from 'express';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { ApiError } from '../errors.js';
import { orderRequestSchema } from '../orderSchema.js';
import { resolveTurnaround, TURNAROUND_HOURS } from '../../domain/turnaround.js';
import { centsToUsd, transcriptionPriceCents } from '../../domain/pricing.js';
import { addHours, formatUtc } from '../../domain/time.js';
import { probeMediaDuration } from '../../media/probe.js';
import { nextOrderId } from '../../db/wallet.js';
import { startAndPayOrder } from '../placeOrder.js';
import type { TurnaroundTime } from '../../domain/catalog.js';

const schema = orderRequestSchema('transcription');

interface TranscriptionRequest {
  mode: 'test' | 'live';
  url: string;
  language: string;
  comment?: string;
  from?: number;
  till?: number;
  text_format: string;
  timestamping: string;
  turnaround_time: TurnaroundTime;
  number_of_speakers: string;
  callback_url?: string;
  strict: boolean;
}

export function transcriptionsRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/api/v4/transcriptions', async (req, res) => {
    const { api_token: token, ...fields } = (req.body ?? {}) as Record<string, unknown>;
    const account = await authenticate(deps.db, deps.secretKey, token);
    const input = schema.parse(fields) as unknown as TranscriptionRequest;

    const turnaround = resolveTurnaround(input.language, input.turnaround_time, input.strict);
    if (!turnaround.ok) {
      throw new ApiError(`turnaround_time: '${input.turnaround_time}' is not available for ${input.language} ` +
        `(available: ${turnaround.allowed.join(', ')}); send strict=false to get the nearest available turnaround`);
    }
    if (input.from !== undefined && input.till !== undefined && input.till <= input.from) {
      throw new ApiError(`till: must be greater than from (${input.from})`);
    }
    const duration = await probeMediaDuration(input.url, 'url', deps.media);
    if (input.from !== undefined && input.from >= duration) throw new ApiError(`from: ${input.from} is not within the media (${duration} seconds long)`);
    if (input.till !== undefined && input.till > duration) throw new ApiError(`till: ${input.till} is not within the media (${duration} seconds long)`);
    const seconds = (input.till ?? duration) - (input.from ?? 0);

    const effective = { ...input, turnaround_time: turnaround.turnaround };
    const priceCents = transcriptionPriceCents(deps.priceTable, { ...effective, seconds });
    const hours = TURNAROUND_HOURS[turnaround.turnaround];

    if (input.mode === 'test') {
      return void res.json({
        mode: 'test', status: 'success', order_total: centsToUsd(priceCents), seconds,
        in_wallet: centsToUsd(account.balanceCents), delivery_estimate: formatUtc(addHours(new Date(), hours)),
      });
    }

    const { mode: _mode, callback_url: callbackUrl, ...params } = effective;
    const orderId = await nextOrderId(deps.db);
    const placed = await startAndPayOrder(deps.temporal, deps.taskQueue, {
      payBy: new Date(Date.now() + deps.payment.windowMs).toISOString(),
      order: {
        id: orderId, accountId: account.id, product: 'transcription', priceCents, seconds, words: 0,
        params: { ...params, ...(turnaround.raised ? { requested_turnaround_time: input.turnaround_time } : {}) },
        callbackUrl: callbackUrl ?? null, turnaroundHours: hours,
      },
      qualityCheckProbability: deps.qualityCheck.probability,
      qualityCheckWindowMs: deps.qualityCheck.windowMs,
    }, deps.payment.windowMs + deps.payment.graceMs);
    deps.log('order placed', { orderId, accountId: account.id, product: 'transcription', priceCents });
    res.json({
      mode: 'live', status: 'success', order_id: placed.orderId, order_total: centsToUsd(priceCents), seconds,
      in_wallet: centsToUsd(placed.balanceCents), delivery_estimate: formatUtc(new Date(placed.deliveryEstimate)),
    });
  });
  return router;
}
