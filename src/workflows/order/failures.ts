// What an order's updates refuse with: typed failures the API maps to the caller's errors.
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { FAILURE_TYPES } from '../../contracts/failures.js';
import type { ResultFile } from '../../contracts/orders.js';
import { resultKindsProblem } from '../../domain/resultKinds.js';

export function stateFailure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FAILURE_TYPES.orderState, message, nonRetryable: true });
}

/** Keeps an activity's typed failure (type and message) as the update's failure. */
export function updateFailure(err: unknown): ApplicationFailure {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    return ApplicationFailure.create({ type: cause.type ?? undefined, message: cause.message, nonRetryable: true });
  }
  return ApplicationFailure.create({ type: 'Internal', message: 'the order could not be updated; try again', nonRetryable: true });
}

export function validateFiles(orderKinds: readonly string[], files: ResultFile[], completing: boolean): void {
  const problem = resultKindsProblem(
    orderKinds,
    files.map((f) => f.kind),
    completing,
  );
  if (problem) throw stateFailure(problem);
}
