// An order's state while its workflow runs, and the transitions that change it: one at a time
// (`transition`), each settling the money first and then the people or engines at work.
import * as wf from '@temporalio/workflow';
import { CancellationScope, ParentClosePolicy } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  orderWorkflowId,
  SEARCH_ATTRIBUTES,
  startSearchAttributes,
  type CallbackEvent,
  type OrderState,
  type OrderStatus,
  type OrderToPlace,
  type OrderWorkflowInput,
  type PlacedOrder,
  type QualityCheck,
  type ResultFile,
  type TransitionResult,
} from '../../contracts/orders.js';
import type { WorkbenchOrder } from '../workbench.js';
import { TaskDesk } from '../heldTask.js';
import { records } from './activities.js';
import { stateFailure, updateFailure } from './failures.js';

export const SETTLED: readonly OrderStatus[] = ['finished', 'refunded', 'canceled', 'retranscribed'];

/** What a finished order starts when it is picked for the quality check (order/qualityCheck.ts). */
export type QualityCheckRunner = (run: OrderRun, job: WorkbenchOrder, text: string) => Promise<void>;

export class OrderRun {
  status: OrderStatus = 'awaiting_payment';
  placed: PlacedOrder | undefined;
  /** When the order is due: placement's estimate, moved when an engine order is handed to people. */
  deliveryEstimate = '';
  qualityCheck: QualityCheck = 'none';
  workingOn: OrderState['workingOn'] = 'nobody';
  /** What is at work, cancelled when the order settles otherwise: the engine, the workbench's tasks, the quality check's task. */
  engineScope: CancellationScope | undefined;
  workScope: CancellationScope | undefined;
  qualityCheckScope: CancellationScope | undefined;
  /** The text people delivered (workbench orders): what a quality check reviews. */
  deliveredText: string | undefined;
  workbench: WorkbenchOrder | undefined;
  retranscribedOrderId: number | undefined;
  /** When an open quality check closes as passed: the window counts from the finish. */
  qualityCheckDeadline = 0;
  /** A transition is running: updates are refused and the paths wait for it. */
  busy = false;
  /** Callbacks to send, in order. */
  readonly outbox: CallbackEvent[] = [];
  /** The workbench tasks this workflow holds (orders placed since tasksHeldByOrder). */
  readonly desk = new TaskDesk();

  constructor(
    readonly input: OrderWorkflowInput,
    private readonly qualityCheckRunner: QualityCheckRunner,
  ) {}

  get order(): OrderToPlace {
    return this.input.order;
  }

  /** A method, not a property read: TypeScript would keep a narrowed status across the awaits between two reads. */
  is(status: OrderStatus): boolean {
    return this.status === status;
  }

  state(): OrderState {
    return { status: this.status, qualityCheck: this.qualityCheck, workingOn: this.workingOn };
  }

  moveTo(next: OrderStatus): void {
    this.status = next;
    wf.upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.status, value: next }]);
  }

  result(): TransitionResult {
    return {
      order_id: this.order.id,
      status: this.status,
      ...(this.qualityCheck !== 'none' ? { quality_check: this.qualityCheck } : {}),
      ...(this.retranscribedOrderId !== undefined ? { retranscribed_order_id: this.retranscribedOrderId } : {}),
    };
  }

  /** Runs one state transition at a time; update validators reject others while it runs. */
  async transition(work: () => Promise<void>): Promise<TransitionResult> {
    this.busy = true;
    try {
      await work();
      return this.result();
    } catch (err) {
      throw updateFailure(err);
    } finally {
      this.busy = false;
    }
  }

  /** For a path that settles the order: the next transition, once none runs (false: the order was settled meanwhile). */
  async stillPaidWhenFree(): Promise<boolean> {
    await wf.condition(() => !this.busy);
    return this.is('paid');
  }

  requireStatus(action: string, needed: OrderStatus): void {
    if (this.busy) throw stateFailure(`order ${this.order.id} is changing state; try again`);
    if (this.status !== needed) throw stateFailure(`order ${this.order.id} is ${this.status}; ${action} needs a ${needed} order`);
  }

  async finish(files: ResultFile[]): Promise<void> {
    const picked = Math.random() < this.input.qualityCheckProbability; // deterministic in workflows
    await records.finishOrder({ orderId: this.order.id, files, qualityCheck: picked });
    this.qualityCheck = picked ? 'pending' : 'none';
    this.qualityCheckDeadline = Date.now() + this.input.qualityCheckWindowMs;
    this.workScope?.cancel();
    this.workingOn = 'nobody';
    this.moveTo('finished');
    this.outbox.push('finished');
    if (picked && this.workbench && this.deliveredText !== undefined) {
      void this.qualityCheckRunner(this, this.workbench, this.deliveredText).catch((err) =>
        wf.log.error('the quality check task failed', { orderId: this.order.id, error: String(err) }),
      );
    }
  }

  async refund(next: 'refunded' | 'canceled', reason: string | null): Promise<void> {
    await records.refundOrder({ orderId: this.order.id, status: next, reason });
    // Only once the money is back: a refund that failed leaves the engine (or the people) working.
    this.engineScope?.cancel();
    this.workScope?.cancel();
    this.workingOn = 'nobody';
    this.moveTo(next);
    this.outbox.push(next);
  }

  /** The quality check found errors: the fixed files replace the delivered ones, and a second callback goes. */
  async fixQualityCheck(files: ResultFile[]): Promise<void> {
    await records.applyQualityFix({ orderId: this.order.id, files });
    this.qualityCheck = 'fixed';
    this.outbox.push('quality_fix');
  }

  /** The quality check passed (approved as it stands, or undecided within its window). */
  async passQualityCheck(): Promise<void> {
    await records.closeQualityCheck({ orderId: this.order.id, result: 'passed' });
    this.qualityCheck = 'passed';
  }

  /** The supplied transcript is too poor to proofread: refunded, or handed on to a human transcription. */
  async rejectSuppliedTranscript(): Promise<void> {
    // Orders placed before onReject was on the order decide by the parameter, as they did.
    const handsOff = this.order.onReject !== undefined ? this.order.onReject === 'hand_off' : this.order.params.auto_retranscribe === true;
    if (!handsOff) return this.refund('refunded', 'the supplied transcript is too poor to proofread');
    const child = await records.retranscribe({ orderId: this.order.id });
    this.workScope?.cancel();
    if (child) {
      await startChildOrder(child, this.input);
      this.retranscribedOrderId = child.id;
    }
    this.workingOn = 'nobody';
    this.moveTo(child ? 'retranscribed' : 'refunded');
    this.outbox.push('refunded');
  }

  /** When the people's work is due: the order's delivery estimate. */
  workDeadline(): string {
    return this.deliveryEstimate || (this.placed?.deliveryEstimate ?? new Date(Date.now() + this.order.turnaroundHours * 3_600_000).toISOString());
  }
}

/** Starts the order that replaces a proofreading order; it lives on after its parent closes. */
async function startChildOrder(child: OrderToPlace, parent: OrderWorkflowInput): Promise<void> {
  // A rejection retried after the child started finds it started: that is the hand-off done.
  await wf
    .startChild('orderWorkflow', {
      workflowId: orderWorkflowId(child.id),
      args: [{ ...parent, order: child, payment: { by: 'parent' } }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: startSearchAttributes(child),
    })
    .catch((err) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
}
