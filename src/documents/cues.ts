// SRT and WebVTT cues, read by WebVTT's block rules, which SRT's numbered blocks also follow:
// blocks are separated by blank lines; a block with a `-->` timing line on its first or second line
// is a cue (the line before it is the cue's identifier, or SRT's number), and the lines after it
// its text. WebVTT's header, NOTE, STYLE and REGION blocks hold no timing line: they are not cues.
// (The `subtitle` package glues a WebVTT cue identifier onto the cue before it, and refuses a file
// whose first cue has one, as YouTube's and most editors' files do.)
import { TranscriptImportError } from '../domain/transcript.js';

export interface TimedCue {
  /** Seconds. */
  start: number;
  end: number;
  /** The cue's text lines, joined by '\n', markup as written. */
  text: string;
}

// [hh:]mm:ss.ttt (WebVTT) or hh:mm:ss,ttt (SRT); some writers give fewer digits of the fraction.
const TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})$/;

function seconds(clock: string): number | undefined {
  const m = TIME.exec(clock);
  if (!m) return undefined;
  const [, h = '0', min, s, fraction] = m;
  return Number(h) * 3600 + Number(min) * 60 + Number(s) + Number(`0.${fraction}`);
}

export function parseCues(text: string): TimedCue[] {
  const cues: TimedCue[] = [];
  const blocks = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/);
  for (const block of blocks) {
    const lines = block.replace(/^\n+/, '').split('\n');
    const at = lines.findIndex((line) => line.includes('-->'));
    if (at === -1 || at > 1) continue;
    const [from = '', rest = ''] = lines[at]!.split('-->');
    // After the end time, WebVTT may give cue settings (`align:start position:10%`).
    const start = seconds(from.trim());
    const end = seconds(rest.trim().split(/\s+/)[0] ?? '');
    if (start === undefined || end === undefined)
      throw new TranscriptImportError(`cue ${cues.length + 1} has no readable times ("${lines[at]!.trim().slice(0, 60)}")`);
    cues.push({
      start,
      end,
      text: lines
        .slice(at + 1)
        .join('\n')
        .trimEnd(),
    });
  }
  return cues;
}
