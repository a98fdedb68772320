// The one decision of who takes an engine order the engine cannot deliver (src/contracts/handOver.ts).
import { describe, expect, it } from 'vitest';
import { faultHandOver, handOverOf, OPERATOR_WORK, peopleWorkFor } from '../../src/contracts/handOver.js';
import type { WorkPlan } from '../../src/contracts/orders.js';

const plan: WorkPlan = {
  skill: 'translation:spanish>english',
  reviewSkill: 'translation:spanish>english',
  editor: 'translation',
  sourceFile: 'source',
  draft: 'source',
  payUnit: 'word',
  rules: { timestamping: 'not_required' },
  stages: ['work', 'review'],
};

describe('handing an engine order to people', () => {
  it('gives speech in the ordered language the gate held back to a transcriber, speech in another to a translator', () => {
    expect(peopleWorkFor('en', 'en')).toBe('transcriber');
    expect(peopleWorkFor('es', 'en')).toBe('translator');
  });

  it("runs the engine's plan in the workbench as the reported people's work, with the engine's reason", () => {
    expect(handOverOf({ outcome: 'unavailable', reason: 'held back by the gate', translator: plan, people: 'transcriber' })).toEqual({
      reason: 'held back by the gate',
      plan,
      people: 'transcriber',
    });
  });

  it("leaves an order with no plan to an operator at a transcriber's turnaround, and names why", () => {
    expect(handOverOf({ outcome: 'unavailable' })).toEqual({ reason: 'no engine is configured', people: OPERATOR_WORK });
    expect(OPERATOR_WORK).toBe('transcriber');
    expect(faultHandOver('timeout')).toEqual({ reason: 'timeout', people: 'transcriber', fault: true });
  });
});
