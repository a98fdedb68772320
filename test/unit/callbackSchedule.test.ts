import { describe, expect, it } from 'vitest';
import { CALLBACK_ATTEMPTS, callbackPauseMs, callbackWindowMs } from '../../src/domain/callbackSchedule.js';

const HOUR = 3_600_000;
const DEFAULTS = { firstPauseMs: 60_000, maxPauseMs: 10 * HOUR };

describe('callback retry schedule', () => {
  it('grows the pause threefold from the first, jittered, up to the longest', () => {
    expect(callbackPauseMs(1, DEFAULTS, 0.5)).toBe(60_000);
    expect(callbackPauseMs(2, DEFAULTS, 0.5)).toBe(180_000);
    expect(callbackPauseMs(3, DEFAULTS, 0)).toBe(0.75 * 540_000);
    expect(callbackPauseMs(3, DEFAULTS, 0.999)).toBeLessThan(1.25 * 540_000);
    expect(callbackPauseMs(9, DEFAULTS, 0.999)).toBe(10 * HOUR);
    for (let attempt = 1; attempt < CALLBACK_ATTEMPTS; attempt++) {
      for (const r of [0, 0.3, 0.7, 0.999]) expect(callbackPauseMs(attempt, DEFAULTS, r)).toBeLessThanOrEqual(DEFAULTS.maxPauseMs);
    }
  });

  it('spreads the 10 attempts over more than a day with the defaults, within a window that the bounds decide', () => {
    const { shortest, longest } = callbackWindowMs(DEFAULTS);
    expect(shortest).toBeGreaterThan(24 * HOUR);
    expect(longest).toBeLessThan(48 * HOUR);
    // The tests' own bounds: milliseconds.
    expect(callbackWindowMs({ firstPauseMs: 5, maxPauseMs: 20 }).longest).toBeLessThanOrEqual(9 * 20);
  });
});
