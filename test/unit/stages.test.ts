// The stages of an order's people work are one table (STAGES, src/contracts/tasks.ts): the own-work
// rule, the queue's SQL, pay, the products' plans and the pages read its rows; the aligner's timing is
// a row the machine does, and the quality check a task no plan declares. A stage added to the table
// (here a test-only one) is barred, paid and named without a change to any of them.
import { describe, expect, it } from 'vitest';
import { isReviewStage, STAGES, TASK_STAGES, taskRowOf, type StageRow } from '../../src/contracts/tasks.js';
import { barredPairs, checksOwnWork } from '../../src/domain/humanWork/ownWork.js';
import { payForTask, payRatesSchema } from '../../src/products/payRates.js';

const rates = payRatesSchema.parse({ transcription: { unit: 'minute', cents: 100, review_cents: 40, languages: { french: 150 } } });
const paid = (stage: string, stages = STAGES as Readonly<Record<string, StageRow>>) =>
  payForTask(rates, { product: 'transcription', stage, language: 'french', seconds: 60, words: 0 }, stages);

describe('STAGES', () => {
  it("bars, pays and names the four tasks; the aligner's timing is no task, the quality check in no plan", () => {
    expect(Object.keys(STAGES)).toEqual(['work', 'review', 'second_review', 'aligner_timing', 'qc']);
    expect(TASK_STAGES).toEqual(['work', 'review', 'second_review', 'qc']);
    expect(taskRowOf('aligner_timing')).toBeUndefined();
    expect(paid('aligner_timing')).toBe(0);
    expect(Object.entries(STAGES).flatMap(([stage, row]) => ('inPlan' in row && !row.inPlan ? [stage] : []))).toEqual(['qc']);
    expect(barredPairs()).toEqual([
      { stage: 'review', barredBy: ['work'] },
      { stage: 'second_review', barredBy: ['work', 'review'] },
      { stage: 'qc', barredBy: ['work', 'review', 'second_review', 'qc'] },
    ]);
    const done = [
      { stage: 'work', submittedBy: 1 },
      { stage: 'review', submittedBy: 2 },
    ];
    expect(checksOwnWork('review', done, 1)).toBe(true);
    expect(checksOwnWork('review', done, 2)).toBe(false);
    expect(checksOwnWork('second_review', done, 2)).toBe(true);
    expect(checksOwnWork('qc', done, 2)).toBe(true);
    expect(checksOwnWork('work', done, 1)).toBe(false);
    // The work at the language's own rate; every check at the reviewer's (no second-review rate set).
    expect(TASK_STAGES.map((stage) => paid(stage))).toEqual([150, 40, 40, 40]);
    expect(TASK_STAGES.map((stage) => STAGES[stage].label)).toEqual(['Work', 'Review', 'Second review', 'Quality check']);
    expect(TASK_STAGES.filter(isReviewStage)).toEqual(['review', 'second_review']);
  });

  it('a stage added as one row is barred, paid and named by the same code', () => {
    const withListening: Readonly<Record<string, StageRow>> = {
      ...STAGES,
      listening: { label: 'Listening check', barredBy: ['work', 'review'], pay: 'review_cents', timeline: 'Listening check', inPlan: true },
    };
    expect(barredPairs(withListening)).toContainEqual({ stage: 'listening', barredBy: ['work', 'review'] });
    expect(checksOwnWork('listening', [{ stage: 'work', submittedBy: 7 }], 7, withListening)).toBe(true);
    expect(checksOwnWork('listening', [{ stage: 'work', submittedBy: 7 }], 8, withListening)).toBe(false);
    expect(paid('listening', withListening)).toBe(40);
    // Unknown to the service's own table: nobody is barred and nothing is paid for it.
    expect(paid('listening')).toBe(0);
    expect(checksOwnWork('listening', [{ stage: 'work', submittedBy: 7 }], 7)).toBe(false);
  });
});
