// How the account area shows money, times and long texts.
import { formatUtc } from '../domain/time.js';
import { html, type Html } from './html.js';
import { isAddressRefusal } from '../net/outbound.js';

/** "$12.50", "-$3.00" */
export function usd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

/** A UTC time as the API writes it, machine-readable in `datetime`; a dash when absent. */
export function when(date: Date | null | undefined): Html {
  if (!date) return html`<span class="muted">—</span>`;
  return html`<time datetime="${date.toISOString()}">${formatUtc(date)} UTC</time>`;
}

/** A length of media in words: "10 min 0 s (600 s)". */
export const duration = (seconds: number): string => `${Math.floor(seconds / 60)} min ${seconds % 60} s (${seconds} s)`;

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A delivery failure as the account holder sees it. The guard's refusals name the address a host
 * resolved to and its range: that is for operators (logs, order-ops), not for a page that would
 * tell a customer how internal names resolve.
 */
export function customerDetail(detail: string): string {
  return isAddressRefusal(detail) ? NOT_PUBLIC : detail;
}

export const NOT_PUBLIC = 'refused: the address is not a public one (private, loopback, link-local and reserved networks are never reached)';

/** A query parameter as one string ('' when absent or repeated). */
export function queryString(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
