// The character error rate by which OCR drafts are judged: Levenshtein over characters after
// white space is normalised, case kept.
import { describe, expect, it } from 'vitest';
import { characterErrorRate, levenshtein, normalizeForComparison } from '../../src/domain/textDistance.js';

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['same', 'same', 0],
    ['abc', 'acb', 2], // a swap is two edits
  ])('%j → %j is %i edits', (a, b, edits) => {
    expect(levenshtein(a, b)).toBe(edits);
    expect(levenshtein(b, a)).toBe(edits);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(levenshtein('a😀b', 'ab')).toBe(1);
    expect(levenshtein('日本語', '日本')).toBe(1);
  });
});

describe('normalizeForComparison', () => {
  it('makes every run of white space one space and trims the ends, case and punctuation kept', () => {
    expect(normalizeForComparison('  One\ttwo\n\nThree,  four. \r\n')).toBe('One two Three, four.');
  });

  it('composes accents (NFC)', () => {
    expect(normalizeForComparison('cafe\u0301')).toBe('café');
  });
});

describe('characterErrorRate', () => {
  it('is 0 for the same text laid out differently', () => {
    expect(characterErrorRate('The quick brown fox\njumps over', 'The quick brown  fox jumps\n over\n')).toBe(0);
  });

  it('is the edits per character of the reference', () => {
    // 'Hello world' (11 characters) read as 'Hel1o world': one substitution.
    expect(characterErrorRate('Hello world', 'Hel1o world')).toBeCloseTo(1 / 11);
    // A line read twice: 12 insertions on 11 characters.
    expect(characterErrorRate('Hello world', 'Hello world Hello world')).toBeCloseTo(12 / 11);
  });

  it('keeps case', () => {
    expect(characterErrorRate('Paris', 'paris')).toBeCloseTo(1 / 5);
  });

  it('treats a composed and a decomposed accent alike', () => {
    expect(characterErrorRate('café', 'cafe\u0301')).toBe(0);
  });

  it('handles empty texts', () => {
    expect(characterErrorRate('', '')).toBe(0);
    expect(characterErrorRate('  \n', '')).toBe(0);
    expect(characterErrorRate('', 'noise')).toBe(1);
    expect(characterErrorRate('text', '')).toBe(1);
  });
});
