// An autosave sends only what changed: one stretch of the text replaced, against the text the
// service last saved (named by its digest, so a change is never applied to another text). Pure: the
// page's script and the service use the same functions.

/** One stretch replaced: text[from, to) becomes `insert` (offsets in UTF-16 code units, as JavaScript counts). */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The one stretch that turns `before` into `after`: their common start and end left out. */
export function changeBetween(before: string, after: string): TextChange {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // Never between the two halves of a character outside the BMP.
  if (start > 0 && start < shorter && isLowSurrogate(before.charCodeAt(start))) start--;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  if (end > 0 && end < shorter - start && isLowSurrogate(before.charCodeAt(before.length - end))) end--;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}

/** `text` with `change` applied; undefined when the change does not fit the text. */
export function applyChange(text: string, change: TextChange): string | undefined {
  const { from, to, insert } = change;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from || to > text.length) return undefined;
  return text.slice(0, from) + insert + text.slice(to);
}

/**
 * A digest of `text` (53-bit, cyrb53 over its UTF-16 code units, with its length): names the text a
 * change was made against. Not for secrets: it only tells two saved texts apart, and the page's script
 * computes it without crypto.subtle (which plain-HTTP pages lack).
 */
export function textDigest(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${text.length.toString(36)}-${hash.toString(36)}`;
}
