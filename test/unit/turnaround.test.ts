import { describe, expect, it } from 'vitest';
import { allowedTurnarounds, recordTurnaround, resolveTurnaround } from '../../src/domain/turnaround.js';

describe('turnaround rules', () => {
  it('knows what each group accepts', () => {
    expect(allowedTurnarounds('english')).toEqual(['12_hours', '1_days', '3_days', '5_days']);
    expect(allowedTurnarounds('french')).toEqual(['3_days', '5_days']);
    expect(allowedTurnarounds('zulu')).toEqual(['5_days']);
  });

  it.each([
    // language, requested, strict, result
    ['english', '12_hours', true, { ok: true, turnaround: '12_hours', raised: false }],
    ['french', '5_days', true, { ok: true, turnaround: '5_days', raised: false }],
    ['french', '3_days', true, { ok: true, turnaround: '3_days', raised: false }],
    ['french', '1_days', true, { ok: false, allowed: ['3_days', '5_days'] }],
    ['french', '12_hours', false, { ok: true, turnaround: '3_days', raised: true }],
    ['french', '1_days', false, { ok: true, turnaround: '3_days', raised: true }],
    ['greek', '3_days', true, { ok: false, allowed: ['5_days'] }],
    ['greek', '12_hours', false, { ok: true, turnaround: '5_days', raised: true }],
    ['greek', '3_days', false, { ok: true, turnaround: '5_days', raised: true }],
  ] as const)('%s %s strict=%s', (language, requested, strict, expected) => {
    expect(resolveTurnaround(language, requested, strict)).toEqual(expected);
  });

  it('writes the record form', () => {
    expect(recordTurnaround('5_days')).toBe('days_5');
    expect(recordTurnaround('1_days')).toBe('days_1');
    expect(recordTurnaround('12_hours')).toBe('hours_12');
  });
});
