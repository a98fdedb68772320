// Machine translation keeps the order's terms (src/engines/keepTerms.ts): the terms out of the text
// before it is translated and back after, whole words as listed, the longest first.
import { describe, expect, it } from 'vitest';
import { protectTerms } from '../../src/engines/keepTerms.js';

describe('keeping terms through machine translation', () => {
  it('sends each term as a number and puts it back as listed', () => {
    const { texts, restore } = protectTerms(
      ['The Red House opened. Red Houses are many.', 'Siobhan met the red house owner.'],
      ['Red House', 'Siobhan', 'Red'],
    );
    // "Red House" before "Red"; "Red Houses" and "red house" are other words.
    expect(texts[0]).toMatch(/^The \d{8} opened\. \d{8} Houses are many\.$/);
    expect(texts[1]).toMatch(/^\d{8} met the red house owner\.$/);
    const translated = texts.map((t) => t.replace('opened', 'abrió'));
    expect(restore(translated)).toEqual(['The Red House abrió. Red Houses are many.', 'Siobhan met the red house owner.']);
  });

  it('never takes a number the text holds as its placeholder', () => {
    const { texts, restore } = protectTerms(['Call 90417300 about Zyphrex.'], ['Zyphrex']);
    expect(texts[0]).not.toContain('Zyphrex');
    expect(texts[0]!.startsWith('Call 90417300 about ')).toBe(true);
    expect(restore(texts)).toEqual(['Call 90417300 about Zyphrex.']);
  });

  it('leaves the texts as they are without terms, and terms of any script', () => {
    expect(protectTerms(['Hello'], []).texts).toEqual(['Hello']);
    const { texts, restore } = protectTerms(['Привет, Москва и Łódź.'], ['Москва', 'Łódź']);
    expect(texts[0]).toMatch(/^Привет, \d{8} и \d{8}\.$/);
    expect(restore(texts)).toEqual(['Привет, Москва и Łódź.']);
  });
});
