// When a failed callback is tried again: jittered exponential back-off, so that the 10 attempts
// (spec, Events rule 1) outlast a receiver's day-long outage, as Stripe (three days) and Svix (about
// a day) do. The pause after attempt n is the first pause × 3^(n-1), capped at the longest pause,
// times a random factor in [0.75, 1.25): with the defaults (1 minute, 10 hours) the nine pauses
// add up to between 27 and 45 hours.

export interface CallbackSchedule {
  /** The pause after the first failed attempt, before jitter. */
  firstPauseMs: number;
  /** The longest pause (and the longest Retry-After honoured). */
  maxPauseMs: number;
}

export const CALLBACK_ATTEMPTS = 10;
const GROWTH = 3;
const JITTER = 0.25;

/** The pause before the base, unjittered: first × 3^(attempt-1), at most the longest pause. */
const basePauseMs = (attempt: number, s: CallbackSchedule) => Math.min(s.maxPauseMs, s.firstPauseMs * GROWTH ** (attempt - 1));

/** The pause after failed attempt `attempt` (1–9); `random` in [0, 1). */
export function callbackPauseMs(attempt: number, s: CallbackSchedule, random: number = Math.random()): number {
  const jittered = basePauseMs(attempt, s) * (1 - JITTER + 2 * JITTER * random);
  return Math.max(1, Math.min(s.maxPauseMs, Math.round(jittered)));
}

/** The shortest and longest time from the first attempt to the last (all 10 failing). */
export function callbackWindowMs(s: CallbackSchedule): { shortest: number; longest: number } {
  let shortest = 0;
  let longest = 0;
  for (let attempt = 1; attempt < CALLBACK_ATTEMPTS; attempt++) {
    shortest += callbackPauseMs(attempt, s, 0);
    longest += callbackPauseMs(attempt, s, 1);
  }
  return { shortest, longest };
}
