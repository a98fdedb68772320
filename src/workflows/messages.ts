// Message definitions and types shared by the workflow, the API and the worker tooling.
// Nothing here may hold a secret: workflow histories are visible in the Temporal UI.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const orderWorkflowId = (orderId: number): string => `order-${orderId}`;

export type OrderStatus = 'awaiting_payment' | 'payment_failed' | 'paid' | 'finished' | 'refunded' | 'canceled';

export interface OrderToPlace {
  id: number;
  accountId: number;
  product: string;
  priceCents: number;
  seconds: number;
  words: number;
  params: Record<string, unknown>;
  callbackUrl: string | null;
  turnaroundHours: number;
}

export interface OrderWorkflowInput {
  order: OrderToPlace;
  /** ISO time after which the order may no longer be charged: the API has stopped waiting. */
  payBy: string;
  /** Chance that a finished order is picked for a quality check, 0..1. */
  qualityCheckProbability: number;
  /** How long a quality check may stay open before it closes as passed. */
  qualityCheckWindowMs: number;
}

export interface PlacedOrder {
  orderId: number;
  balanceCents: number;
  paidAt: string;
  deliveryEstimate: string;
}

/** A result file by claim-check: the key of a blob in the file store. */
export interface ResultFile { kind: string; blobKey: string; fileName: string }

export interface TransitionResult { order_id: number; status: OrderStatus; quality_check?: 'pending' | 'passed' | 'fixed' }

export const placeOrderUpdate = defineUpdate<PlacedOrder>('placeOrder');
export const completeUpdate = defineUpdate<TransitionResult, [{ files: ResultFile[] }]>('complete');
export const refundUpdate = defineUpdate<TransitionResult, [{ reason?: string }]>('refund');
export const cancelUpdate = defineUpdate<TransitionResult, []>('cancel');
export const qualityCheckUpdate = defineUpdate<TransitionResult, [{ pass: true } | { fix: ResultFile[] }]>('qualityCheck');
export const statusQuery = defineQuery<{ status: OrderStatus; qualityCheck: 'none' | 'pending' | 'passed' | 'fixed' }>('status');

export const SEARCH_ATTRIBUTES = {
  orderId: defineSearchAttributeKey('OrderId', SearchAttributeType.INT),
  accountId: defineSearchAttributeKey('OrderAccountId', SearchAttributeType.INT),
  product: defineSearchAttributeKey('OrderProduct', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('OrderStatus', SearchAttributeType.KEYWORD),
  mode: defineSearchAttributeKey('OrderMode', SearchAttributeType.KEYWORD),
};

/** `--search-attribute` arguments for the dev server. */
export const SEARCH_ATTRIBUTE_FLAGS = [
  'OrderId=Int', 'OrderAccountId=Int', 'OrderProduct=Keyword', 'OrderStatus=Keyword', 'OrderMode=Keyword',
];

/** Failure types the API maps to error objects. */
export const FAILURE_TYPES = { insufficientFunds: 'InsufficientFunds', orderState: 'OrderState', paymentExpired: 'PaymentExpired' } as const;
