// Who may check whose work: the stages of an order whose submitters may not take a stage's task
// (STAGES' barredBy), so nobody checks their own work. Pure; db/tasks.ts applies the same rows in SQL.
import { STAGES, taskRowOf, type StageTable } from '../../contracts/tasks.js';

/** A task of the order someone submitted, as far as the rule below needs it. */
export interface DoneTask {
  stage: string;
  submittedBy: number | null;
}

/**
 * Nobody checks their own work: a review is closed to whoever did the work (a part, a fix); the
 * second review also to the first reviewer; a quality check to whoever submitted any of the order's
 * tasks. A reviewer who sent work back may review the fix.
 */
export function checksOwnWork(stage: string, done: readonly DoneTask[], workerId: number, stages: StageTable = STAGES): boolean {
  const barred = taskRowOf(stage, stages)?.barredBy ?? [];
  return done.some((t) => t.submittedBy === workerId && barred.includes(t.stage));
}

/** The (stage, barring stage) pairs of the table: what the queue's SQL refuses (db/tasks.ts). */
export function barredPairs(stages: StageTable = STAGES): Array<{ stage: string; barredBy: readonly string[] }> {
  return Object.keys(stages).flatMap((stage) => {
    const barredBy = taskRowOf(stage, stages)?.barredBy ?? [];
    return barredBy.length > 0 ? [{ stage, barredBy }] : [];
  });
}
