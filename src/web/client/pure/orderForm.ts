// The new-order page's rules, without the page: money and sizes as the page writes them, an
// upload's progress, when a file picked again is the same file, the idempotency key's fate after an
// answer, and the totals of the files' quotes. No DOM: newOrder.ts applies them.

/** Cents as the page writes money: `$12.34`, `-$0.50`. */
export const usd = (cents: number): string => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;

/** Bytes as the page writes a file's size: `12.3 MB` (decimal megabytes). */
export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** An idempotency key from random bytes: their hex digits. */
export const hexKey = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** An upload's progress: whole percent (an empty file is whole) and what the page says of it. */
export function uploadProgress(sent: number, total: number): { percent: number; text: string } {
  const percent = total ? Math.floor((sent * 100) / total) : 100;
  return { percent, text: sent >= total ? `Uploaded, ${megabytes(total)}` : `${percent}% of ${megabytes(total)}` };
}

/** What the page knows of a picked file (a File has these). */
export interface PickedFile {
  name: string;
  size: number;
  lastModified: number;
}

/** A file picked again is the same file when its name, size and time of change are. */
export const sameFile = (a: PickedFile, b: PickedFile): boolean => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/**
 * Whether a placement's answer used up its idempotency key: a refusal (4xx) is the key's answer for
 * good, so a new attempt (funds added, a field fixed) needs a new key. A lost answer (0), a fault
 * (5xx) or a request still running (409) keeps it, so that the retry charges once.
 */
export const refusalEndsKey = (status: number): boolean => status >= 400 && status < 500 && status !== 409;

/** A quote of one file's order, as the service answers it. */
export interface Quote {
  price_cents: number;
  balance_cents: number;
}

/** The files' total, the wallet's balance (the newest quote's) and what it would be after placing them all. */
export function totalsOf(quotes: readonly Quote[]): { total: number; balance: number; after: number } | undefined {
  const last = quotes[quotes.length - 1];
  if (!last) return undefined;
  const total = quotes.reduce((sum, quote) => sum + quote.price_cents, 0);
  return { total, balance: last.balance_cents, after: last.balance_cents - total };
}
