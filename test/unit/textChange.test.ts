import { describe, expect, it } from 'vitest';
import { applyChange, changeBetween, textDigest } from '../../src/domain/humanWork/textChange.js';

describe('an autosave of what changed', () => {
  const pairs: Array<[string, string]> = [
    ['Speaker 1: the keeper climbed', 'Speaker 1: the old keeper climbed'],
    ['Speaker 1: the keeper climbed', 'Speaker 1: keeper climbed'],
    ['abc', 'abc'],
    ['', 'all new'],
    ['all gone', ''],
    ['aaaa', 'aaaaa'],
    // Characters outside the BMP: a change never splits one (🎉 and 😀 share their first half).
    ['party 🎉 now', 'party 😀 now'],
    ['𝒜𝒜', '𝒜'],
    ['नमस्ते दुनिया', 'नमस्ते प्यारी दुनिया'],
    ['مرحبا بالعالم', 'مرحبا'],
  ];
  it.each(pairs)('turns %j into %j with one stretch', (before, after) => {
    const change = changeBetween(before, after);
    expect(applyChange(before, change)).toBe(after);
    // The common start and end are left out, and no half of a character is sent alone.
    expect(before.slice(0, change.from) + before.slice(change.to)).toBe(after.slice(0, change.from) + after.slice(change.from + change.insert.length));
    expect(() => encodeURIComponent(change.insert)).not.toThrow();
    expect(() => encodeURIComponent(before.slice(change.from, change.to))).not.toThrow();
  });

  it('sends one word typed into two hours of text, not the text', () => {
    const long = Array.from({ length: 18_000 }, (_, i) => `word${i}`).join(' ');
    const typed = long.slice(0, 60_000) + 'inserted ' + long.slice(60_000);
    expect(changeBetween(long, typed)).toEqual({ from: 60_000, to: 60_000, insert: 'inserted ' });
  });

  it('refuses a change that does not fit the text', () => {
    expect(applyChange('short', { from: 2, to: 9, insert: '' })).toBeUndefined();
    expect(applyChange('short', { from: 3, to: 2, insert: '' })).toBeUndefined();
    expect(applyChange('short', { from: -1, to: 2, insert: '' })).toBeUndefined();
    expect(applyChange('short', { from: 1.5, to: 2, insert: '' })).toBeUndefined();
  });

  it('a digest tells texts apart, with their length', () => {
    expect(textDigest('Speaker 1: hello')).toBe(textDigest('Speaker 1: hello'));
    expect(textDigest('Speaker 1: hello')).not.toBe(textDigest('Speaker 1: hallo'));
    expect(textDigest('ab')).not.toBe(textDigest('ba'));
    expect(textDigest('')).toMatch(/^0-[0-9a-z]+$/);
    const many = new Set(Array.from({ length: 10_000 }, (_, i) => textDigest(`text ${i}`)));
    expect(many.size).toBe(10_000);
  });
});
