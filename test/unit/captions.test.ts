import { describe, expect, it } from 'vitest';
import { parseSync } from 'subtitle';
import { breakLines, buildCues, CUE_LIMITS, keptCues, renderAlignment, renderSrt, renderVtt, TimingError } from '../../src/domain/render/captions.js';
import { FIXTURE } from './layout.test.js';

const sourceText = (t: typeof FIXTURE) => t.segments.map((s) => s.text).join(' ');
const cueTexts = (text: string) =>
  parseSync(text)
    .filter((n) => n.type === 'cue')
    .map((n) => (n.data as { text: string }).text);

describe('caption cues', () => {
  const cues = buildCues(FIXTURE);

  it('keep the broadcast limits and never overlap', () => {
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(CUE_LIMITS.lines);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(CUE_LIMITS.lineChars);
      expect(cue.end - cue.start).toBeLessThanOrEqual(CUE_LIMITS.maxSeconds + 1e-9);
      expect(cue.end - cue.start).toBeGreaterThan(0);
    }
    cues.slice(1).forEach((cue, i) => expect(cue.start).toBeGreaterThanOrEqual(cues[i]!.end));
  });

  it('lose no word and keep their order', () => {
    expect(cues.map((c) => c.lines.join(' ')).join(' ')).toBe(sourceText(FIXTURE));
  });

  it('last at least a second where the next cue leaves room', () => {
    const quick = buildCues({
      segments: [
        { start: 0, end: 0.2, text: 'Hi.' },
        { start: 5, end: 6, text: 'Later.' },
        { start: 6.3, end: 6.5, text: 'Now.' },
      ],
    });
    expect(quick.map((c) => [c.start, c.end])).toEqual([
      [0, 1],
      [5, 6],
      [6.3, 7.3],
    ]);
    const crowded = buildCues({
      segments: [
        { start: 0, end: 0.2, text: 'Hi.' },
        { start: 0.5, end: 1, text: 'There.' },
      ],
    });
    expect(crowded[0]!.end).toBe(0.5);
  });

  it('use word timings when known', () => {
    const guest = cues.filter((c) => c.start >= 8 && c.end <= 44);
    expect(guest[0]!.start).toBe(8);
    expect(guest.every((c) => Number.isInteger((c.start - 8) / 1.5))).toBe(true);
  });

  it('break long text into two balanced lines', () => {
    expect(breakLines('short')).toEqual(['short']);
    expect(breakLines('the quick brown fox jumps over the lazy dog and runs away')).toEqual(['the quick brown fox jumps over', 'the lazy dog and runs away']);
    expect(breakLines('x'.repeat(50))).toEqual(['x'.repeat(50)]);
  });

  it('need times', () => {
    expect(() => buildCues({ segments: [{ text: 'untimed' }] })).toThrow(new TimingError('captions need start and end times: segment 1 has none'));
  });
});

describe('caption files, read back by the subtitle parser', () => {
  it('SRT holds the same text, in numbered cues with comma milliseconds', () => {
    const srt = renderSrt(buildCues(FIXTURE));
    expect(srt.startsWith('1\n00:00:00,000 --> 00:00:')).toBe(true);
    expect(cueTexts(srt).join(' ').replace(/\n/g, ' ')).toBe(sourceText(FIXTURE));
  });

  it('WebVTT holds the same text, speakers as voice tags', () => {
    const vtt = renderVtt(buildCues(FIXTURE));
    expect(vtt.startsWith('WEBVTT\n\n00:00:00.000 --> ')).toBe(true);
    const texts = cueTexts(vtt);
    expect(texts[0]).toMatch(/^<v Interviewer>/);
    expect(
      texts
        .join(' ')
        .replace(/<v [^>]+>/g, '')
        .replace(/\n/g, ' '),
    ).toBe(sourceText(FIXTURE));
  });

  it('escapes markup in WebVTT', () => {
    expect(renderVtt(buildCues({ segments: [{ start: 0, end: 2, text: 'a < b & c' }] }))).toContain('a &lt; b &amp; c');
  });

  it("a translation's cues are its segments, at their own times to the millisecond, never cut or stretched", () => {
    const long = 'Ceci est une traduction bien plus longue que les deux lignes de quarante-deux caractères permises.';
    const cues = keptCues({
      segments: [
        { start: 1.234, end: 1.734, speaker: 'Ann', text: 'Court.' }, // half a second: kept, not stretched to the minimum
        { start: 1.734, end: 12.5, text: long }, // over 7 seconds and over two lines: one cue still
      ],
    });
    expect(cues.map(({ start, end }) => [start, end])).toEqual([
      [1.234, 1.734],
      [1.734, 12.5],
    ]);
    expect(cues[0]).toMatchObject({ speaker: 'Ann', lines: ['Court.'] });
    expect(cues[1]!.lines.join(' ')).toBe(long);
    for (const line of cues[1]!.lines) expect(line.length).toBeLessThanOrEqual(CUE_LIMITS.lineChars);
    expect(renderSrt(cues)).toBe(`1\n00:00:01,234 --> 00:00:01,734\nCourt.\n\n2\n00:00:01,734 --> 00:00:12,500\n${cues[1]!.lines.join('\n')}\n`);
    expect(renderVtt(cues)).toContain('00:00:01.234 --> 00:00:01.734\n<v Ann>Court.');
    expect(() => keptCues({ segments: [{ start: 2, text: 'no end' }] })).toThrow(new TimingError('captions need start and end times: segment 1 has none'));
  });

  it('alignment needs word timings for every segment', () => {
    expect(() => renderAlignment(FIXTURE)).toThrow(TimingError);
    const aligned = JSON.parse(renderAlignment({ segments: [FIXTURE.segments[1]!] }));
    expect(aligned.words[0]).toEqual({ word: 'Thank', begin: 8, end: 9.5 });
    expect(aligned.words).toHaveLength(FIXTURE.segments[1]!.words!.length);
  });
});
