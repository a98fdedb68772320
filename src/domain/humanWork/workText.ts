// A worker's text as the workbench takes it (autosave, Submit, review and its note): its limit, the
// request body that limit needs, and well-formed UTF-16 — every surrogate paired, and a change's
// offsets never between the two halves of a character. A lone surrogate cannot be stored as UTF-8
// (PostgreSQL and Temporal's JSON put U+FFFD in its place), so the text saved would no longer be
// the text the page holds and the page's next change would be refused. Pure: the routes' schemas,
// the use cases and the autosave's SQL use it.
import type { TextChange } from './textChange.js';

/**
 * The longest text a worker may save or submit, in UTF-16 code units (as JavaScript counts): ten
 * hours of speech, the longest media an order takes, is about 100,000 words, some 600,000
 * characters of English with its marks and labels, fewer of Chinese or Japanese. A submitted text
 * goes to the order's workflow as a Temporal payload, which may not pass 2 MiB (past it the SDK
 * fails the workflow's task again and again): this many CJK characters are 1.8 MB in UTF-8.
 */
export const MAX_WORK_TEXT = 600_000;

/** The longest note a reviewer sends back with the work, in UTF-16 code units. */
export const MAX_WORK_NOTE = 10_000;

/**
 * The request body that carries a worker's text at its limit, in bytes, in the worst encoding: a
 * form (application/x-www-form-urlencoded) sends a character from U+0800 up as three UTF-8 bytes,
 * each percent-encoded, 9 bytes for one code unit (an emoji: 12 for two); JSON takes at most 6
 * (`\uXXXX`). A review's note rides in the same form; the rest (CSRF token, decision, field
 * names, a change's offsets and digest) fits in the slack.
 */
export const WORK_TEXT_BODY_BYTES = 9 * (MAX_WORK_TEXT + MAX_WORK_NOTE) + 16 * 1024;

/**
 * A text as the editor holds it (line breaks LF, as CodeMirror keeps them) from a form's field: HTML
 * sends a textarea's line breaks as CRLF, which would count twice against the limit and be stored.
 */
export function editorLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Where the first surrogate without its other half sits in `text`; -1 when every one is paired. */
export function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isHigh(code) && isLow(text.charCodeAt(i + 1))) i++;
    else if (isHigh(code) || isLow(code)) return i;
  }
  return -1;
}

/** Whether `offset` falls between the two halves of a surrogate pair of `text`. */
export function splitsPair(text: string, offset: number): boolean {
  return offset > 0 && offset < text.length && isHigh(text.charCodeAt(offset - 1)) && isLow(text.charCodeAt(offset));
}

/**
 * The bytes `text` takes as JSON in UTF-8, as Temporal carries a submitted text to the order's
 * workflow (quotes left out): a control character escaped takes 6, more than any other character.
 */
export function jsonBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) bytes += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (!isHigh(code) || !isLow(text.charCodeAt(i + 1))) bytes += isLow(code) || isHigh(code) ? 6 : 3;
    else {
      bytes += 4;
      i++;
    }
  }
  return bytes;
}

/**
 * Why a text cannot be taken, without its field; undefined when it can. Past `max` characters, its
 * bytes as JSON: at most `max` characters of three bytes each (CJK), so that control characters (six
 * each, and a page does not show them) cannot carry a text past the payload Temporal takes.
 */
function sizeProblem(text: string, max: number): string | undefined {
  if (text.length > max) return `longer than ${max.toLocaleString('en')} characters`;
  const bytes = jsonBytes(text);
  if (bytes > 3 * max)
    return `too large to store (${bytes.toLocaleString('en')} bytes as JSON, at most ${(3 * max).toLocaleString('en')}: a control character takes 6)`;
  return undefined;
}

/** What is wrong with a worker's text, named by its field (`text`, `change.insert`, `note`); undefined when nothing. */
export function workTextProblem(field: string, text: string, max = MAX_WORK_TEXT): string | undefined {
  if (text.length > max) return `${field}: ${sizeProblem(text, max)}`;
  const lone = loneSurrogateAt(text);
  if (lone >= 0) return `${field}: holds a lone surrogate (at ${lone}): half of a character outside the BMP, which cannot be stored`;
  const size = sizeProblem(text, max);
  return size && `${field}: ${size}`;
}

/**
 * What is wrong with `change` against the text it was made to (found by its digest), named by its
 * field; undefined when it may be applied or does not fit that text at all (the caller's stale case).
 */
export function changeProblem(text: string, change: TextChange, max = MAX_WORK_TEXT): string | undefined {
  const { from, to, insert } = change;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from || to > text.length) return undefined;
  if (splitsPair(text, from)) return 'change.from: splits a character (a surrogate pair)';
  if (splitsPair(text, to)) return 'change.to: splits a character (a surrogate pair)';
  const inserted = workTextProblem('change.insert', insert, max);
  if (inserted) return inserted;
  const size = sizeProblem(text.slice(0, from) + insert + text.slice(to), max);
  return size && `change: the text would be ${size}`;
}
