// Timestamp marks for each timestamping mode on one fixed transcript, against golden files
// (reviewed by eye once; UPDATE_GOLDEN=1 rewrites them after an intended change).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layoutTranscript, type Timestamping } from '../../src/domain/render/layout.js';
import { renderText } from '../../src/domain/render/text.js';
import type { Transcript } from '../../src/domain/transcript.js';

const words = (start: number, text: string, step = 1.5) => text.split(' ').map((t, i) => ({ text: t, start: start + i * step, end: start + (i + 1) * step }));

/** Two speakers over two and a half minutes; the long middle segment has word timings. */
export const FIXTURE: Transcript = {
  segments: [
    { speaker: 'Interviewer', start: 0, end: 8, text: 'Good morning and welcome to the programme.' },
    {
      speaker: 'Guest',
      start: 8,
      end: 44,
      text: 'Thank you. I have spent the last twenty years studying rivers and what they carry out to sea every single day.',
      words: words(8, 'Thank you. I have spent the last twenty years studying rivers and what they carry out to sea every single day.'),
    },
    { speaker: 'Guest', start: 44, end: 65, text: 'Most of it is sand.' },
    { speaker: 'Interviewer', start: 65, end: 131, text: 'Sand? That is surprising.' },
    { speaker: 'Guest', start: 131, end: 150, text: 'It surprises everyone.' },
  ],
};

const MODES: Timestamping[] = ['not_required', 'every_10_seconds', 'every_30_seconds', 'every_2_minutes', 'change_of_speaker'];

describe('timestamp marks', () => {
  it.each(MODES)('%s matches its golden file', (mode) => {
    const path = `test/golden/timestamping-${mode}.txt`;
    const text = renderText(layoutTranscript(FIXTURE, mode));
    if (process.env.UPDATE_GOLDEN) writeFileSync(path, text);
    expect(text).toBe(readFileSync(path, 'utf8'));
  });

  it('puts interval marks at boundaries, at most one per interval, in order', () => {
    const marks = layoutTranscript(FIXTURE, 'every_10_seconds').flatMap((p) => p.runs.flatMap((r) => ('mark' in r ? [r.mark] : [])));
    expect(marks).toEqual(['00:00:00', '00:00:10', '00:00:20', '00:00:30', '00:00:40', '00:01:00', '00:02:10']);
  });

  it('marks nothing in a transcript without times', () => {
    const untimed = { segments: [{ speaker: 'A', text: 'No times here.' }] };
    for (const mode of MODES) expect(renderText(layoutTranscript(untimed, mode))).toBe('A: No times here.\n');
  });
});
