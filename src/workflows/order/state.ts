// An order's state while its workflow runs, and the only code that changes it. The workflow's
// handlers and its paths (order/engine.ts, people.ts, qualityCheck.ts) call its commands; every
// command runs inside the order's one mutex (as the safe-message-handlers sample's ClusterManager),
// one at a time, settling the money first and then the people or engines at work. Validators refuse
// while a command runs (`changing`); paths that settle the order queue for their turn.
import * as wf from '@temporalio/workflow';
import { Mutex } from 'async-mutex';
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
  type WorkPlan,
} from '../../contracts/orders.js';
import type { EngineOutcome } from '../../contracts/handOver.js';
import type { TaskInput } from '../../contracts/tasks.js';
import type { WorkbenchOrder } from './humanStages.js';
import { TaskDesk, type HeldTask } from './heldTask.js';
import { chargeWallet, orderRecords } from '../activities.js';
import { stateFailure, updateFailure } from './failures.js';

const SETTLED: readonly OrderStatus[] = ['finished', 'refunded', 'canceled', 'retranscribed'];

/** What a finished order starts when it is picked for the quality check (order/qualityCheck.ts). */
export type QualityCheckRunner = (run: OrderRun, job: WorkbenchOrder, text: string) => Promise<void>;

/** What is at work on the order, each in its own scope: cancelled when the order settles otherwise. */
type Work = 'engine' | 'people' | 'qualityCheck';

export class OrderRun {
  private status: OrderStatus = 'awaiting_payment';
  private placed: PlacedOrder | undefined;
  /** When the order is due: placement's estimate, moved when an engine order is handed to people. */
  private estimate = '';
  private check: QualityCheck = 'none';
  private workingOn: OrderState['workingOn'] = 'nobody';
  private readonly scopes = new Map<Work, CancellationScope>();
  /** The text people delivered (workbench orders): what a quality check reviews. */
  private deliveredText: string | undefined;
  private workbench: WorkbenchOrder | undefined;
  private retranscribedOrderId: number | undefined;
  /** When an open quality check closes as passed: the window counts from the finish. */
  private checkDeadline = 0;
  private readonly mutex = new Mutex();
  /** Callbacks to send, in order. */
  private readonly outbox: CallbackEvent[] = [];
  /** The workbench tasks this workflow holds. */
  private readonly desk = new TaskDesk();

  constructor(
    readonly input: OrderWorkflowInput,
    private readonly qualityCheckRunner: QualityCheckRunner,
  ) {}

  get order(): OrderToPlace {
    return this.input.order;
  }

  // ---- what the handlers and paths read ----

  /** A method, not a property read: TypeScript would keep a narrowed status across the awaits between two reads. */
  is(status: OrderStatus): boolean {
    return this.status === status;
  }

  state(): OrderState {
    return { status: this.status, qualityCheck: this.check, workingOn: this.workingOn };
  }

  outcome(): { status: OrderStatus; qualityCheck: QualityCheck } {
    return { status: this.status, qualityCheck: this.check };
  }

  get deliveryEstimate(): string {
    return this.estimate;
  }

  get engineAtWork(): boolean {
    return this.workingOn === 'engine';
  }

  get isPlaced(): boolean {
    return this.placed !== undefined;
  }

  /** A command is running: updates are refused, the paths queue for their turn. */
  get changing(): boolean {
    return this.mutex.isLocked();
  }

  /** Settled, and no command running: only callbacks and an open quality check are left. */
  isSettled(): boolean {
    return !this.changing && SETTLED.includes(this.status);
  }

  get qualityCheckOpen(): boolean {
    return this.check === 'pending';
  }

  qualityCheckDueInMs(): number {
    return Math.max(1, this.checkDeadline - Date.now());
  }

  hasCallbacks(): boolean {
    return this.outbox.length > 0;
  }

  /** A task this order holds, by the id an update names. */
  findTask(taskId: string): HeldTask {
    return this.desk.find(taskId);
  }

  requireStatus(action: string, needed: OrderStatus): void {
    if (this.changing) throw stateFailure(`order ${this.order.id} is changing state; try again`);
    if (this.status !== needed) throw stateFailure(`order ${this.order.id} is ${this.status}; ${action} needs a ${needed} order`);
  }

  /** When the people's work is due: the order's delivery estimate. */
  private workDeadline(): string {
    return this.estimate || (this.placed?.deliveryEstimate ?? new Date(Date.now() + this.order.turnaroundHours * 3_600_000).toISOString());
  }

  // ---- payment ----

  /** The next callback to send, once no command runs. */
  nextCallback(): Promise<CallbackEvent | undefined> {
    return this.mutex.runExclusive(() => this.outbox.shift());
  }

  /** The customer's charge (placeOrder): answered again, not charged again, once placed. */
  charge(): Promise<PlacedOrder> {
    return this.mutex.runExclusive(async () => {
      if (this.placed) return this.placed;
      try {
        this.placed = await chargeWallet(this.order);
      } catch (err) {
        this.moveTo('payment_failed');
        throw updateFailure(err);
      }
      this.moveTo('paid');
      return this.placed;
    });
  }

  /** A child order: the parent's transaction charged it; confirming finds that charge (false: it could not). */
  confirmParentCharge(): Promise<boolean> {
    return this.mutex.runExclusive(async () => {
      try {
        this.placed = await chargeWallet(this.order);
        this.moveTo('paid');
        return true;
      } catch (err) {
        wf.log.error('a child order could not confirm its charge', { orderId: this.order.id, error: String(err) });
        return false;
      }
    });
  }

  /** Not paid in time (or the charge refused): the order ends unpaid. */
  closeUnpaid(): Promise<void> {
    return this.mutex.runExclusive(() => {
      if (!this.is('payment_failed')) this.moveTo('payment_failed');
    });
  }

  // ---- fulfilment ----

  /** Paid: the engine or the people start, due at placement's estimate. */
  startFulfilment(): Promise<void> {
    return this.mutex.runExclusive(() => {
      this.workingOn = this.order.fulfilment === 'engine' ? 'engine' : 'operator';
      if (this.placed) this.estimate = this.placed.deliveryEstimate;
    });
  }

  /**
   * Runs one kind of work (hours of an engine's or people's) in a scope of its own, which a
   * settlement cancels: only registering the scope changes the order, synchronously; the work runs
   * outside the mutex, and its outcome is applied by a command.
   */
  atWork<T>(work: Work, body: () => Promise<T>): Promise<T> {
    const running = CancellationScope.cancellable(() => {
      this.scopes.set(work, CancellationScope.current());
      return body();
    });
    // The scope runs its function before cancellable returns: the map holds this work's scope now.
    const scope = this.scopes.get(work);
    const leave = () => {
      if (this.scopes.get(work) === scope) this.scopes.delete(work);
    };
    void running.then(leave, leave);
    return running;
  }

  /** The engine gave the order up: people take it; completions are accepted from now. */
  handToPeople(): Promise<void> {
    return this.mutex.runExclusive(() => {
      this.workingOn = 'operator';
    });
  }

  /** Handed to people: due at the turnaround of their work (the lateness timer waits for it). */
  moveDeliveryEstimate(estimate: string): Promise<void> {
    return this.mutex.runExclusive(() => {
      this.estimate = estimate;
    });
  }

  /** The workbench's job for this order: its plan of human work, due at the order's estimate, its tasks held here. */
  assignWorkbench(work: WorkPlan): Promise<WorkbenchOrder> {
    return this.mutex.runExclusive(() => {
      const job = {
        order: { ...this.order, work },
        settings: this.input.workbench,
        deadline: this.workDeadline(),
        holdTask: (input: TaskInput) => this.desk.hold(input),
      };
      this.workbench = job;
      return job;
    });
  }

  // ---- settlement by the paths: each in its turn, and only while the order is paid ----

  /** The engine's outcome: its files delivered, or the order refunded with its reason. */
  async settleByEngine(outcome: Exclude<EngineOutcome, { outcome: 'unavailable' }>): Promise<void> {
    await this.whilePaid(() => (outcome.outcome === 'finished' ? this.finish(outcome.files) : this.refund('refunded', outcome.reason)));
  }

  /** The people's approved work: its files delivered; its text is what a quality check reviews. */
  async settleByPeople(text: string, files: ResultFile[]): Promise<void> {
    await this.whilePaid(() => {
      this.deliveredText = text;
      return this.finish(files);
    });
  }

  /** A supplied transcript the automatic check failed: refunded, or handed on. */
  async settleRejectedTranscript(): Promise<void> {
    await this.whilePaid(() => this.rejectSuppliedTranscript());
  }

  /** The quality check's reviewer decided: a fix (its files made in its turn) or a pass. False: it was decided first. */
  decideQualityCheck(fixedFiles: (() => Promise<ResultFile[]>) | undefined): Promise<boolean> {
    return this.mutex.runExclusive(async () => {
      if (this.check !== 'pending') return false;
      await (fixedFiles ? this.fixQualityCheck(await fixedFiles()) : this.passQualityCheck());
      return true;
    });
  }

  /** The window closed with nobody's decision: passed, and the reviewer's task withdrawn (unless an update decided it first). */
  closeUndecidedQualityCheck(): Promise<void> {
    return this.mutex.runExclusive(async () => {
      if (this.check !== 'pending') return;
      await this.passQualityCheck();
      this.scopes.get('qualityCheck')?.cancel();
    });
  }

  // ---- the updates' commands: their validators refused while a command ran ----

  complete(files: ResultFile[]): Promise<TransitionResult> {
    return this.transition(() => this.finish(files));
  }

  refundOrCancel(next: 'refunded' | 'canceled', reason: string | null): Promise<TransitionResult> {
    return this.transition(() => this.refund(next, reason));
  }

  rejectTranscript(): Promise<TransitionResult> {
    return this.transition(() => this.rejectSuppliedTranscript());
  }

  qualityCheckDecision(decision: { pass: true } | { fix: ResultFile[] }): Promise<TransitionResult> {
    return this.transition(async () => {
      await ('fix' in decision ? this.fixQualityCheck(decision.fix) : this.passQualityCheck());
      this.scopes.get('qualityCheck')?.cancel();
    });
  }

  // ---- the changes themselves, each inside the mutex ----

  /** An update's change in its turn, answered with the order's state after it. */
  private transition(work: () => Promise<void>): Promise<TransitionResult> {
    return this.mutex.runExclusive(async () => {
      try {
        await work();
        return this.result();
      } catch (err) {
        throw updateFailure(err);
      }
    });
  }

  /** A path's change in its turn: only while the order is still paid then (an update may have settled it meanwhile). */
  private whilePaid(work: () => Promise<void>): Promise<void> {
    return this.mutex.runExclusive(() => (this.is('paid') ? work() : undefined));
  }

  private result(): TransitionResult {
    return {
      order_id: this.order.id,
      status: this.status,
      ...(this.check !== 'none' ? { quality_check: this.check } : {}),
      ...(this.retranscribedOrderId !== undefined ? { retranscribed_order_id: this.retranscribedOrderId } : {}),
    };
  }

  private moveTo(next: OrderStatus): void {
    this.status = next;
    wf.upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.status, value: next }]);
  }

  private async finish(files: ResultFile[]): Promise<void> {
    const picked = Math.random() < this.input.qualityCheckProbability; // deterministic in workflows
    await orderRecords.finishOrder({ orderId: this.order.id, files, qualityCheck: picked });
    this.check = picked ? 'pending' : 'none';
    this.checkDeadline = Date.now() + this.input.qualityCheckWindowMs;
    this.scopes.get('people')?.cancel();
    this.workingOn = 'nobody';
    this.moveTo('finished');
    this.outbox.push('finished');
    if (picked && this.workbench && this.deliveredText !== undefined) {
      void this.qualityCheckRunner(this, this.workbench, this.deliveredText).catch((err) =>
        wf.log.error('the quality check task failed', { orderId: this.order.id, error: String(err) }),
      );
    }
  }

  private async refund(next: 'refunded' | 'canceled', reason: string | null): Promise<void> {
    await orderRecords.refundOrder({ orderId: this.order.id, status: next, reason });
    // Only once the money is back: a refund that failed leaves the engine (or the people) working.
    this.scopes.get('engine')?.cancel();
    this.scopes.get('people')?.cancel();
    this.workingOn = 'nobody';
    this.moveTo(next);
    this.outbox.push(next);
  }

  /** The quality check found errors: the fixed files replace the delivered ones, and a second callback goes. */
  private async fixQualityCheck(files: ResultFile[]): Promise<void> {
    await orderRecords.applyQualityFix({ orderId: this.order.id, files });
    this.check = 'fixed';
    this.outbox.push('quality_fix');
  }

  /** The quality check passed (approved as it stands, or undecided within its window). */
  private async passQualityCheck(): Promise<void> {
    await orderRecords.closeQualityCheck({ orderId: this.order.id, result: 'passed' });
    this.check = 'passed';
  }

  /** The supplied transcript is too poor to proofread: refunded, or handed on to a human transcription. */
  private async rejectSuppliedTranscript(): Promise<void> {
    if (this.order.onReject !== 'hand_off') return this.refund('refunded', 'the supplied transcript is too poor to proofread');
    const child = await orderRecords.retranscribe({ orderId: this.order.id });
    this.scopes.get('people')?.cancel();
    if (child) {
      await startChildOrder(child, this.input);
      this.retranscribedOrderId = child.id;
    }
    this.workingOn = 'nobody';
    this.moveTo(child ? 'retranscribed' : 'refunded');
    this.outbox.push('refunded');
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
