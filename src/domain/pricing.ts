// Money on the wire is USD; in the database it is integer cents. Each product prices itself
// (src/products/*); this is the conversion both sides share.
export const centsToUsd = (cents: number): number => Math.round(cents) / 100;

/** USD amount as typed by an operator ("12.5") to cents, refusing fractions of a cent. */
export function usdToCents(usd: number): number {
  const cents = Math.round(usd * 100);
  if (!Number.isFinite(usd) || Math.abs(cents - usd * 100) > 1e-6) throw new RangeError(`not a whole number of cents: ${usd}`);
  return cents;
}

/**
 * What an AI order costs the wallet when subscription minutes pay first: whole minutes of the
 * audio are taken from the subscription, the seconds they do not cover are billed per second.
 */
export function splitSubscription(seconds: number, priceCents: number, minutesLeft: number, centsPerMinute: number): { minutesUsed: number; cents: number } {
  const needed = Math.ceil(seconds / 60);
  const minutesUsed = Math.min(Math.max(0, minutesLeft), needed);
  if (minutesUsed === 0) return { minutesUsed, cents: priceCents };
  const uncovered = Math.max(0, seconds - minutesUsed * 60);
  return { minutesUsed, cents: Math.min(priceCents, Math.ceil((uncovered * centsPerMinute) / 60)) };
}
