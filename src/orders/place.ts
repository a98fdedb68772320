// Placing an order, the use case (issue 19's src/orders/): parse, settle, measure, price, the
// wallet pre-check, the claim-check of input files, and the live placement (Update-with-Start,
// startOrder.ts). The API's creation route is its adapter: authentication, body shape and
// idempotency stay there.
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { measureTools, type ProbePolicy } from './measureTools.js';
import { startAndPayOrder } from './startOrder.js';
import { deleteAfterSecondsParam, modeParam } from '../products/params.js';
import type { OrderParams, PriceTable, ProductDefinition } from '../products/registry.js';
import type { Measured } from '../products/types.js';
import { centsToUsd, splitSubscription } from '../domain/pricing.js';
import { addHours, formatUtc } from '../domain/time.js';
import { nextOrderId } from '../db/wallet.js';
import { getAccount } from '../db/accounts.js';
import type { Db } from '../db/connection.js';
import type { AccountRow, OrderRow } from '../db/schema.js';
import type { FileStore } from '../storage/fileStore.js';
import { FetchError, type Limits, type MediaLimits, type OutboundClient } from '../net/outbound.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';
import { recordUploadUse } from '../db/uploads.js';
import { forOrder } from '../db/orderBlobs.js';
import { workedMediaFormats } from '../documents/mediaFormats.js';
import type { AudioRenderer } from '../engines/audioRendition.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import { orderWorkflowId, type OrderToPlace, type WorkbenchSettings } from '../contracts/orders.js';
import { orderPlan } from '../products/shared.js';
import { InsufficientFundsError } from '../contracts/failures.js';
import { ordersPlaced, walletChargeFailures } from '../metrics.js';

/** What every product takes beside its own parameters. */
const envelope = z.object({ mode: modeParam, delete_after_seconds: deleteAfterSecondsParam.optional() });

/** What placing an order needs; the API's deps carry it. */
export interface PlacementDeps {
  db: Db;
  files: FileStore;
  temporal: Client;
  taskQueue: string;
  priceTable: PriceTable;
  media: MediaLimits;
  documents: Limits;
  probes: ProbePolicy;
  outbound: OutboundClient;
  /** This service's upload URLs, which `outbound` reads from the store (src/net/uploadedFiles.ts). */
  uploads?: UploadedFiles;
  documentReader: DocumentReader;
  /** ffmpeg, where installed: the media formats it must render are priced only with it. */
  audioRenderer?: AudioRenderer;
  qualityCheck: { probability: number; windowMs: number };
  workbench: WorkbenchSettings;
  payment: { windowMs: number; graceMs: number };
  log: (message: string, meta: object) => void;
}

interface AnswerFigures {
  seconds: number;
  words: number;
  orderTotalCents: number;
  inWalletCents: number;
  minutesLeft: number;
  estimate: Date;
}

/** The success fields of a creation answer, as the product's creation response names them. */
function creationAnswer(product: ProductDefinition, f: AnswerFigures) {
  return {
    ...(product.creationFields.includes('seconds') ? { seconds: f.seconds } : {}),
    ...(product.creationFields.includes('words') ? { words: f.words } : {}),
    order_total: centsToUsd(f.orderTotalCents),
    in_wallet: centsToUsd(f.inWalletCents),
    ...(product.creationFields.includes('ai_transcripts_minutes_left') ? { ai_transcripts_minutes_left: f.minutesLeft } : {}),
    delivery_estimate: formatUtc(f.estimate),
  };
}

/** The answer a live order's creation gave, rebuilt from the order (its first answer was lost). */
export function chargedAnswer(product: ProductDefinition, order: OrderRow, balanceAfterCents: number, account: AccountRow) {
  return {
    mode: 'live',
    status: 'success',
    order_id: order.id,
    ...creationAnswer(product, {
      seconds: order.seconds,
      words: order.words,
      orderTotalCents: order.priceCents,
      inWalletCents: balanceAfterCents,
      minutesLeft: account.aiMinutes,
      estimate: order.deliveryEstimate!,
    }),
  };
}

/** `place(product, account, body, onOrderId)`: a quote (mode=test) or a live order placed and paid. */
export function createPlacement(deps: PlacementDeps) {
  const toolsFor = measureTools(
    deps.outbound,
    deps.documentReader,
    { media: deps.media, documents: deps.documents, probes: deps.probes },
    { accepted: workedMediaFormats(Boolean(deps.audioRenderer)) },
    deps.uploads,
  );

  /** Records the order on the uploads it names, each still orderable at this moment (src/db/uploads.ts). */
  async function useUploads(orderId: number, accountId: number, params: OrderParams): Promise<void> {
    const { uploads } = deps;
    if (!uploads) return;
    for (const [field, value] of Object.entries(params)) {
      const id = typeof value === 'string' ? uploads.idOf(value) : undefined;
      if (!id || (await recordUploadUse(deps.db, id, orderId))) continue;
      await uploads.checkOrderable(id, accountId, field); // says why, naming the field
      throw new FetchError(`${field}: the upload can no longer be ordered`);
    }
  }

  /** Keeps the input files order `orderId`'s workers need (claim-check: the workflow sees only keys). */
  async function keep(orderId: number, measured: Measured): Promise<OrderToPlace['inputFiles']> {
    const kept: NonNullable<OrderToPlace['inputFiles']> = {};
    for (const [name, file] of Object.entries(measured.keep ?? {})) {
      kept[name] = { key: await deps.files.put(file.bytes, forOrder(deps.db, orderId)), fileName: file.fileName };
    }
    return kept;
  }

  /** Creates one order (or quotes it); `onOrderId` learns a live order's id before it can be charged. */
  async function place(product: ProductDefinition, account: AccountRow, body: Record<string, unknown>, onOrderId: (id: number) => Promise<void>) {
    const { mode: rawMode, delete_after_seconds: rawDeleteAfter, ...fields } = body;
    const { mode, delete_after_seconds: deleteAfterSeconds } = envelope.parse({ mode: rawMode, delete_after_seconds: rawDeleteAfter });
    const parsed = product.request.parse(fields);
    const request = product.settle ? product.settle(parsed) : parsed;
    const measured = await product.measure(request, toolsFor(account.id, mode));
    const params = { ...request, ...measured.params };
    const prices = deps.priceTable[product.key];
    const priceCents = product.price(prices, params, measured);
    const rate = product.subscriptionRate?.(prices);
    const hours = product.turnaroundHours(params);
    const answer = (orderTotalCents: number, inWalletCents: number, minutesLeft: number, estimate: Date) =>
      creationAnswer(product, { seconds: measured.seconds, words: measured.words, orderTotalCents, inWalletCents, minutesLeft, estimate });
    // What the wallet pays now; the charge's transaction decides again and is the authority.
    const dueCents = rate === undefined ? priceCents : splitSubscription(measured.seconds, priceCents, account.aiMinutes, rate).cents;

    if (mode === 'test') return { mode, status: 'success', ...answer(dueCents, account.balanceCents, account.aiMinutes, addHours(new Date(), hours)) };
    // A wallet clearly short is refused here, so a refused order leaves no workflow behind. The
    // account may be a second old (src/db/accountCache.ts): a refusal reads the balance afresh.
    const balanceCents = account.balanceCents < dueCents ? (await getAccount(deps.db, account.id))!.balanceCents : account.balanceCents;
    if (balanceCents < dueCents) {
      walletChargeFailures.inc({ reason: 'insufficient_funds' });
      throw new InsufficientFundsError(dueCents, balanceCents);
    }
    const placed = await placeLive(
      product,
      account,
      {
        priceCents,
        seconds: measured.seconds,
        words: measured.words,
        params,
        rate,
        measured,
        // The account's rule for orders that say nothing (Settings: "Delete orders' data after").
        deleteAfterSeconds: deleteAfterSeconds ?? (account.deleteAfterDays === null ? undefined : account.deleteAfterDays * 86_400),
      },
      onOrderId,
    );
    return {
      mode,
      status: 'success',
      order_id: placed.orderId,
      ...answer(placed.chargedCents, placed.balanceCents, placed.aiMinutesLeft, new Date(placed.deliveryEstimate)),
    };
  }

  async function placeLive(
    product: ProductDefinition,
    account: AccountRow,
    order: {
      priceCents: number;
      seconds: number;
      words: number;
      params: OrderParams;
      rate?: number;
      measured: Measured;
      deleteAfterSeconds?: number | undefined;
    },
    onOrderId: (id: number) => Promise<void>,
  ) {
    const { callback_url: callbackUrl, ...params } = order.params;
    const orderId = await nextOrderId(deps.db);
    await onOrderId(orderId);
    await useUploads(orderId, account.id, order.params);
    const inputFiles = await keep(orderId, order.measured);
    const placed = await startAndPayOrder(
      deps.temporal,
      deps.taskQueue,
      {
        payment: { by: 'customer', payBy: new Date(Date.now() + deps.payment.windowMs).toISOString() },
        order: {
          id: orderId,
          accountId: account.id,
          priceCents: order.priceCents,
          seconds: order.seconds,
          words: order.words,
          params,
          callbackUrl: typeof callbackUrl === 'string' ? callbackUrl : null,
          ...orderPlan(product, params),
          ...(order.rate !== undefined ? { subscription: { centsPerMinute: order.rate } } : {}),
          ...(inputFiles && Object.keys(inputFiles).length ? { inputFiles } : {}),
          ...(order.deleteAfterSeconds !== undefined ? { deleteAfterSeconds: order.deleteAfterSeconds } : {}),
        },
        qualityCheckProbability: deps.qualityCheck.probability,
        qualityCheckWindowMs: deps.qualityCheck.windowMs,
        workbench: deps.workbench,
      },
      deps.payment.windowMs + deps.payment.graceMs,
    );
    deps.log('order placed', { orderId, accountId: account.id, workflowId: orderWorkflowId(orderId), product: product.key, priceCents: placed.chargedCents });
    ordersPlaced.inc({ product: product.key });
    return placed;
  }

  return place;
}
