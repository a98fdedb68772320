import { describe, expect, it } from 'vitest';
import { PRODUCTS } from '../../src/products/registry.js';
import { describeZodError } from '../../src/http/zodErrors.js';

const schema = PRODUCTS.transcription.request;
const base = { url: 'https://media.example.com/a.mp3', language: 'english' };
const errorOf = (input: Record<string, unknown>) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a validation error');
  return describeZodError(result.error);
};

describe('transcription request schema', () => {
  it('fills every default', () => {
    expect(schema.parse(base)).toEqual({
      ...base,
      text_format: 'clean_verbatim',
      timestamping: 'not_required',
      turnaround_time: '5_days',
      number_of_speakers: '1_or_2',
      strict: false,
    });
  });

  it.each(['clean_verbatim', 'full_verbatim'])('accepts text_format %s', (v) => expect(schema.parse({ ...base, text_format: v }).text_format).toBe(v));
  it.each(['not_required', 'every_10_seconds', 'every_30_seconds', 'every_2_minutes', 'change_of_speaker'])('accepts timestamping %s', (v) =>
    expect(schema.parse({ ...base, timestamping: v }).timestamping).toBe(v),
  );
  it.each(['12_hours', '1_days', '3_days', '5_days'])('accepts turnaround_time %s', (v) =>
    expect(schema.parse({ ...base, turnaround_time: v }).turnaround_time).toBe(v),
  );
  it.each(['1_or_2', '3_or_more'])('accepts number_of_speakers %s', (v) => expect(schema.parse({ ...base, number_of_speakers: v }).number_of_speakers).toBe(v));

  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
    [1, true],
    [0, false],
    ['TRUE', true],
  ])('reads strict=%j as %s', (given, expected) => expect(schema.parse({ ...base, strict: given }).strict).toBe(expected));

  it('reads from and till as whole seconds from numbers or strings', () => {
    expect(schema.parse({ ...base, from: '15', till: 90 })).toMatchObject({ from: 15, till: 90 });
    expect(errorOf({ ...base, from: 1.5 })).toBe('from: must be a whole number of seconds');
    expect(errorOf({ ...base, till: 'ten' })).toBe('till: must be a whole number of seconds');
  });

  it('normalises language case and whitespace, and rejects other sets', () => {
    expect(schema.parse({ ...base, language: ' English ' }).language).toBe('english');
    expect(errorOf({ ...base, language: 'simplified-chinese' })).toMatch(/^language: 'simplified-chinese' is not supported for human transcription/);
  });

  it('names missing and unknown parameters', () => {
    expect(errorOf({})).toBe('url: is required; language: is required');
    expect(errorOf({ ...base, callback: 'x', speakers: 2 })).toBe('unknown parameters: callback, speakers');
    expect(errorOf({ ...base, callback_url: 'not a url' })).toBe('callback_url: must be an http or https URL, got "not a url"');
    expect(errorOf({ ...base, comment: 'x'.repeat(10_001) })).toBe('comment: is longer than 10000 characters');
  });

  it('refuses till before from, and the same language twice in a translation', () => {
    expect(errorOf({ ...base, from: 30, till: 30 })).toBe('till: must be greater than from (30): from 30 to till 30 leaves nothing');
    expect(errorOf({ ...base, till: 0 })).toBe('till: must be greater than 0: till 0 leaves nothing');
    const translation = PRODUCTS.translation.request.safeParse({ url: base.url, translate_from: 'english', translate_to: 'english' });
    expect(translation.success || describeZodError(translation.error)).toBe('translate_to: must differ from translate_from (both are english)');
  });

  it('reads the booleans of other products the same way', () => {
    const proofreading = PRODUCTS.transcription_proofreading.request.parse({
      audio_url: base.url,
      transcription_url: base.url,
      language: 'english',
      captions: '1',
      auto_retranscribe: 'true',
    });
    expect(proofreading).toMatchObject({ captions: true, auto_retranscribe: true });
    const fa = PRODUCTS.forced_alignment.request.safeParse({ audio_url: 'http://x.test/a', transcription_url: 'http://x.test/t', language: 'german' });
    expect(fa.success || describeZodError(fa.error)).toMatch(/^language: 'german' is not supported for forced alignment/);
  });
});
