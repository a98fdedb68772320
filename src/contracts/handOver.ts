// An engine order the engine cannot deliver goes to people: who takes it, with what plan and why is
// decided here, once. The engine activity reports what it found (EngineOutcome, with
// `peopleWorkFor`); the workflow does what `handOverOf` says (src/workflows/order/engine.ts).
import type { PeopleWork, ResultFile, WorkPlan } from './orders.js';

/**
 * `unavailable`: no engine is configured, or the work needs a person (`reason`): the order waits for
 * an operator, or runs `translator`'s plan in the workbench (`people`: whose work that plan is).
 */
export type EngineOutcome =
  | { outcome: 'finished'; files: ResultFile[] }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'unavailable'; reason?: string; translator?: undefined }
  | { outcome: 'unavailable'; reason: string; translator: WorkPlan; people: PeopleWork };

/** The people's part of an order handed over: in the workbench by `plan` when there is one, else by an operator. */
export interface HandOver {
  /** Why, as the operator and the order's notes read it. */
  reason: string;
  /** The workbench plan of the people's work (the engine's transcript kept as its source); absent: an operator's. */
  plan?: WorkPlan | undefined;
  /** Whose work the plan is, from which the new delivery estimate counts. */
  people: PeopleWork;
  /** The engine failed past its retries (rather than found the work needs a person). */
  fault?: true;
}

/** Speech in the ordered language that the engine's gate held back needs a transcriber; speech in another, a translator. */
export const peopleWorkFor = (spoken: string, ordered: string): PeopleWork => (spoken === ordered ? 'transcriber' : 'translator');

/**
 * An operator's hand-over is due at a transcriber's turnaround, whatever the speech: they decide the
 * work (as before the workbench took translators).
 */
export const OPERATOR_WORK: PeopleWork = 'transcriber';

/** The hand-over an `unavailable` outcome asks for. */
export function handOverOf(outcome: Extract<EngineOutcome, { outcome: 'unavailable' }>): HandOver {
  if (!outcome.translator) return { reason: outcome.reason ?? 'no engine is configured', people: OPERATOR_WORK };
  return {
    reason: outcome.reason,
    plan: outcome.translator,
    people: outcome.people,
  };
}

/** The hand-over of an engine that failed past its retry budget: the order is not lost, an operator takes it. */
export const faultHandOver = (reason: string): HandOver => ({ reason, people: OPERATOR_WORK, fault: true });
