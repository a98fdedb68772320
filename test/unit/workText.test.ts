import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changeProblem,
  editorLineBreaks,
  jsonBytes,
  loneSurrogateAt,
  MAX_WORK_NOTE,
  MAX_WORK_TEXT,
  splitsPair,
  WORK_TEXT_BODY_BYTES,
  workTextProblem,
} from '../../src/domain/humanWork/workText.js';

// 🎉 is U+1F389: the pair \ud83c\udf89.
const PARTY = 'a🎉b';

describe("a worker's text", () => {
  it('finds the first surrogate without its other half', () => {
    expect(loneSurrogateAt('')).toBe(-1);
    expect(loneSurrogateAt('Speaker 1: 🎉 漢字 𝒜')).toBe(-1);
    expect(loneSurrogateAt('\ud83c')).toBe(0);
    expect(loneSurrogateAt('ab\udf89')).toBe(2);
    expect(loneSurrogateAt('a🎉\ud83c')).toBe(3);
    // Two highs and a low: the first high is the lone one.
    expect(loneSurrogateAt('\ud83c\ud83c\udf89')).toBe(0);
    expect(loneSurrogateAt('\udf89\ud83c')).toBe(0);
  });

  it('an offset splits a character only between its two halves', () => {
    expect([0, 1, 2, 3, 4].map((offset) => splitsPair(PARTY, offset))).toEqual([false, false, true, false, false]);
    expect(splitsPair('🎉', 1)).toBe(true);
    expect(splitsPair('\udf89', 0)).toBe(false);
  });

  it('names the field of a text over the limit or with a lone surrogate', () => {
    expect(workTextProblem('text', 'x'.repeat(MAX_WORK_TEXT))).toBeUndefined();
    expect(workTextProblem('text', 'x'.repeat(MAX_WORK_TEXT + 1))).toBe('text: longer than 600,000 characters');
    expect(workTextProblem('text', `Speaker 1: \ud83c party`)).toMatch(/^text: holds a lone surrogate \(at 11\)/);
    expect(workTextProblem('note', '\udf89', MAX_WORK_NOTE)).toMatch(/^note: holds a lone surrogate/);
    expect(workTextProblem('note', 'x'.repeat(MAX_WORK_NOTE + 1), MAX_WORK_NOTE)).toBe('note: longer than 10,000 characters');
  });

  it('takes a text at the limit in the largest characters, not one that control characters make larger', () => {
    expect(workTextProblem('text', '漢'.repeat(10), 10)).toBeUndefined();
    expect(workTextProblem('text', '🎉'.repeat(5), 10)).toBeUndefined();
    expect(workTextProblem('text', '"\\\n\t'.repeat(2) + 'ab', 10)).toBeUndefined();
    expect(workTextProblem('text', '\u0001'.repeat(5), 10)).toBeUndefined();
    expect(workTextProblem('text', '\u0001'.repeat(6), 10)).toBe('text: too large to store (36 bytes as JSON, at most 30: a control character takes 6)');
  });

  it("takes a form's line breaks (CRLF, by HTML's rule for a textarea) as the editor's (LF)", () => {
    expect(editorLineBreaks('Speaker 1: one\r\ntwo\r\n\r\nthree\rfour\nfive')).toBe('Speaker 1: one\ntwo\n\nthree\nfour\nfive');
  });

  it('counts the bytes of the text as JSON in UTF-8, as Temporal carries it', () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const text = fc.oneof(fc.string({ unit }), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('a', '漢', '🎉', '\u0001', '\n', '"', 'é') }));
    fc.assert(fc.property(text, (t) => jsonBytes(t) === Buffer.byteLength(JSON.stringify(t)) - 2));
  });
});

describe('a change against the text saved', () => {
  it('names the offset that splits a character', () => {
    expect(changeProblem(PARTY, { from: 2, to: 2, insert: 'x' })).toBe('change.from: splits a character (a surrogate pair)');
    expect(changeProblem(PARTY, { from: 1, to: 2, insert: '' })).toBe('change.to: splits a character (a surrogate pair)');
    expect(changeProblem(PARTY, { from: 2, to: 4, insert: '' })).toBe('change.from: splits a character (a surrogate pair)');
    expect(changeProblem(PARTY, { from: 1, to: 3, insert: '😀' })).toBeUndefined();
    expect(changeProblem(PARTY, { from: 3, to: 3, insert: ' 🎉' })).toBeUndefined();
  });

  it('names an inserted lone surrogate, and a text the change would make too long', () => {
    expect(changeProblem(PARTY, { from: 0, to: 0, insert: '\ud83c' })).toMatch(/^change\.insert: holds a lone surrogate/);
    // Its other half in the text saved does not make it whole: a change is checked by itself.
    expect(changeProblem('\udf89', { from: 0, to: 0, insert: '\ud83c' })).toMatch(/^change\.insert: holds a lone surrogate/);
    expect(changeProblem('abc', { from: 3, to: 3, insert: 'd' }, 3)).toBe('change: the text would be longer than 3 characters');
    expect(changeProblem('abc', { from: 2, to: 3, insert: 'd' }, 3)).toBeUndefined();
    expect(changeProblem('\u0001', { from: 1, to: 1, insert: '\u0001' }, 3)).toMatch(/^change: the text would be too large to store/);
  });

  it('leaves a change that does not fit the text to the caller (made against another text)', () => {
    expect(changeProblem('short', { from: 2, to: 9, insert: '' })).toBeUndefined();
    expect(changeProblem('short', { from: 3, to: 2, insert: '' })).toBeUndefined();
    expect(changeProblem('short', { from: -1, to: 2, insert: '' })).toBeUndefined();
  });
});

describe('the body limit of the routes that take a text', () => {
  const form = (fields: Record<string, string>) => Buffer.byteLength(new URLSearchParams({ csrf: 'x'.repeat(43), ...fields }).toString());
  // What a client that escapes every character outside ASCII sends (Python's json.dumps does).
  const asciiJson = (value: object) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

  it('carries a text at the limit and a note at its limit in their worst encoding', () => {
    const text = '漢'.repeat(MAX_WORK_TEXT);
    const note = '漢'.repeat(MAX_WORK_NOTE);
    expect(form({ text })).toBe(9 * MAX_WORK_TEXT + 'csrf=&text='.length + 43);
    expect(form({ decision: 'send_back', text, note })).toBeLessThanOrEqual(WORK_TEXT_BODY_BYTES);
    expect(form({ text: '🎉'.repeat(MAX_WORK_TEXT / 2) })).toBeLessThan(form({ text }));
    expect(asciiJson({ change: { from: 0, to: 0, insert: text }, base: 'x'.repeat(64) }).length).toBeLessThanOrEqual(WORK_TEXT_BODY_BYTES);
  });

  it('and one character over the limit still fits, so the route names the field instead of the parser refusing the body', () => {
    expect(form({ text: '漢'.repeat(MAX_WORK_TEXT + 1) })).toBeLessThanOrEqual(WORK_TEXT_BODY_BYTES);
  });
});
