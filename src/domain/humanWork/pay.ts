// A worker's pay for a task: cents per audio minute or per 1000 words. Pure: callers do the I/O.

/** Cents per audio minute, or per 1000 words. */
export interface PayRate {
  unit: 'minute' | 'word';
  cents: number;
}

export function taskPayCents(rate: PayRate, work: { seconds: number; words: number }): number {
  const raw = rate.unit === 'minute' ? (rate.cents * work.seconds) / 60 : (rate.cents * work.words) / 1000;
  return Number.isFinite(raw) && raw > 0 ? Math.round(raw) : 0;
}
