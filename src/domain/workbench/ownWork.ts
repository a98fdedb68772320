// Who may check whose work: the stages of an order whose submitters may not take a stage's task,
// so nobody checks their own work. Pure; db/tasks.ts applies the same table in SQL.
import type { TaskStage } from '../../contracts/tasks.js';

/** A task of the order someone submitted, as far as the rule below needs it. */
export interface DoneTask {
  stage: TaskStage;
  submittedBy: number | null;
}

/**
 * Nobody checks their own work: for each stage, the stages of the same order whose submitters may
 * not take it. A review is closed to whoever did the work (a part, a fix); the second review also to
 * the first reviewer; a quality check to whoever submitted any of the order's tasks. A reviewer who
 * sent work back may review the fix. db/tasks.ts's queue applies the same table in SQL.
 */
export const BARRED_BY: Readonly<Record<TaskStage, readonly TaskStage[]>> = {
  work: [],
  review: ['work'],
  second_review: ['work', 'review'],
  qc: ['work', 'review', 'second_review', 'qc'],
};

export function checksOwnWork(stage: TaskStage, done: readonly DoneTask[], workerId: number): boolean {
  return done.some((t) => t.submittedBy === workerId && BARRED_BY[stage].includes(t.stage));
}
