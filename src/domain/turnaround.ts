// Turnaround rules: languages of group T35 accept 3 or 5 days, of group T5 only 5 days.
import { ENUMS, type TurnaroundTime } from './catalog.js';
import { TURNAROUND_GROUPS } from './languages.js';

const T35 = new Set(TURNAROUND_GROUPS.T35);
const T5 = new Set(TURNAROUND_GROUPS.T5);

/** Turnaround values a language accepts, fastest first. */
export function allowedTurnarounds(language: string): readonly TurnaroundTime[] {
  if (T5.has(language)) return ['5_days'];
  if (T35.has(language)) return ['3_days', '5_days'];
  return ENUMS.turnaround_time;
}

export type TurnaroundResolution = { ok: true; turnaround: TurnaroundTime; raised: boolean } | { ok: false; allowed: readonly TurnaroundTime[] };

/**
 * The turnaround an order gets. With `strict`, an unavailable value is rejected; without it,
 * the nearest longer value the language accepts is used instead.
 */
export function resolveTurnaround(language: string, requested: TurnaroundTime, strict: boolean): TurnaroundResolution {
  const allowed = allowedTurnarounds(language);
  if (allowed.includes(requested)) return { ok: true, turnaround: requested, raised: false };
  if (strict) return { ok: false, allowed };
  const order = ENUMS.turnaround_time;
  const longer = allowed.find((t) => order.indexOf(t) > order.indexOf(requested)) ?? allowed[allowed.length - 1]!;
  return { ok: true, turnaround: longer, raised: true };
}

export const TURNAROUND_HOURS: Record<TurnaroundTime, number> = {
  '12_hours': 12,
  '1_days': 24,
  '3_days': 72,
  '5_days': 120,
};

/** The record form of a turnaround: `3_days` → `days_3`, `12_hours` → `hours_12`. */
export function recordTurnaround(value: TurnaroundTime): string {
  const [amount, unit] = value.split('_') as [string, string];
  return `${unit}_${amount}`;
}
