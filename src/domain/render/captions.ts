// Captions and subtitles (SRT, WebVTT, TTML/DFXP) and the forced-alignment JSON, from timed transcripts.
// Cues hold at most 2 lines of 42 characters and last 1 to 7 seconds, the usual broadcast limits.
import { timedWords, type Segment, type Transcript, type Word } from '../transcript.js';
import { LEFT_TO_RIGHT, type TextScript } from './layout.js';

/** WebVTT cue text escapes only these three (WebVTT §4.2.2). */
const escapeVtt = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export class TimingError extends Error {}

export const CUE_LIMITS = { lineChars: 42, lines: 2, maxSeconds: 7, minSeconds: 1 } as const;

export interface Cue {
  start: number;
  end: number;
  lines: string[];
  speaker?: string;
}

/** A segment's words: its own timings, or its span shared out by the length of each word. */
function wordsOf(segment: Segment, index: number): Word[] {
  if (segment.words?.length) return segment.words;
  if (segment.start === undefined || segment.end === undefined || segment.end <= segment.start) {
    throw new TimingError(`captions need start and end times: segment ${index + 1} has none`);
  }
  const tokens = segment.text.split(/\s+/).filter(Boolean);
  const total = tokens.reduce((n, t) => n + t.length + 1, 0);
  const span = segment.end - segment.start;
  let at = segment.start;
  return tokens.map((text) => {
    const start = at;
    at += (span * (text.length + 1)) / total;
    return { text, start, end: at };
  });
}

/** Two balanced lines when the text is longer than one line allows. */
export function breakLines(text: string): string[] {
  if (text.length <= CUE_LIMITS.lineChars) return [text];
  const middle = text.length / 2;
  let best = -1;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) {
    if (best === -1 || Math.abs(i - middle) < Math.abs(best - middle)) best = i;
  }
  return best === -1 ? [text] : [text.slice(0, best), text.slice(best + 1)];
}

export function buildCues(t: Transcript): Cue[] {
  const cues: Cue[] = [];
  const maxChars = CUE_LIMITS.lineChars * CUE_LIMITS.lines;
  t.segments.forEach((segment, index) => {
    let current: Word[] = [];
    const flush = () => {
      if (!current.length) return;
      const text = current.map((w) => w.text).join(' ');
      cues.push({ start: current[0]!.start, end: current.at(-1)!.end, lines: breakLines(text), ...(segment.speaker ? { speaker: segment.speaker } : {}) });
      current = [];
    };
    for (const word of wordsOf(segment, index)) {
      const text = [...current, word].map((w) => w.text).join(' ');
      const tooLong = text.length > maxChars || (current.length > 0 && word.end - current[0]!.start > CUE_LIMITS.maxSeconds);
      if (tooLong) flush();
      current.push(word);
      // A sentence end past the first line closes the cue: captions read better by sentence.
      if (/[.!?]$/.test(word.text) && text.length > CUE_LIMITS.lineChars) flush();
    }
    flush();
  });
  // Between the minimum and maximum duration (a lone slow word must not linger on screen),
  // never running into the next cue.
  return cues.map((cue, i) => {
    const next = cues[i + 1]?.start ?? Infinity;
    const wanted = Math.min(Math.max(cue.end, cue.start + CUE_LIMITS.minSeconds), cue.start + CUE_LIMITS.maxSeconds);
    return { ...cue, end: Math.min(wanted, next) };
  });
}

/**
 * A cue per segment at the segment's own times, its text in lines of at most CUE_LIMITS.lineChars
 * (a translation of subtitles keeps the source's cues: same number, same times).
 */
export function keptCues(t: Transcript): Cue[] {
  return t.segments.map((segment, index) => {
    const { start, end } = segment;
    if (start === undefined || end === undefined || end <= start) throw new TimingError(`captions need start and end times: segment ${index + 1} has none`);
    return { start, end, lines: wrapLines(segment.text), ...(segment.speaker ? { speaker: segment.speaker } : {}) };
  });
}

/** Lines of at most CUE_LIMITS.lineChars where the words allow, broken at spaces. */
function wrapLines(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= CUE_LIMITS.lineChars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length <= CUE_LIMITS.lines ? breakLines(lines.join(' ')) : lines;
}

function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** Letters of the right-to-left scripts. */
const RIGHT_TO_LEFT_LETTER = /[\p{sc=Arabic}\p{sc=Hebrew}\p{sc=Syriac}\p{sc=Thaana}\p{sc=Nko}]/u;
const RIGHT_TO_LEFT_MARK = '\u200F';

/**
 * How SRT and WebVTT say a line's direction: they have no field for it, and players take it from
 * the line's first letter (the Unicode bidirectional algorithm, rule P2). So in a right-to-left
 * result a line that starts with another letter (a Latin name, an English word) begins with a
 * right-to-left mark, which sets it right to left and is not drawn.
 */
function directed(line: string, script: TextScript): string {
  const first = /\p{L}/u.exec(line)?.[0];
  return script.direction === 'rtl' && first && !RIGHT_TO_LEFT_LETTER.test(first) ? RIGHT_TO_LEFT_MARK + line : line;
}

export function renderSrt(cues: readonly Cue[], script: TextScript = LEFT_TO_RIGHT): string {
  return cues
    .map((c, i) => `${i + 1}\n${timestamp(c.start, ',')} --> ${timestamp(c.end, ',')}\n${c.lines.map((l) => directed(l, script)).join('\n')}\n`)
    .join('\n');
}

/** WebVTT; its header says the language (`Language:`, as YouTube's files do; players skip the header). */
export function renderVtt(cues: readonly Cue[], script: TextScript = LEFT_TO_RIGHT): string {
  const blocks = cues.map((c) => {
    const lines = c.lines.map((l) => directed(escapeVtt(l), script));
    if (c.speaker) lines[0] = `<v ${escapeVtt(c.speaker)}>${lines[0]}`;
    return `${timestamp(c.start, '.')} --> ${timestamp(c.end, '.')}\n${lines.join('\n')}\n`;
  });
  return [`WEBVTT\n${script.language ? `Language: ${script.language}\n` : ''}`, ...blocks].join('\n');
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * TTML 1 (W3C Timed Text; DFXP is its earlier name, the same document): one `<p>` per cue, its lines
 * joined by `<br/>`, speakers declared once as `ttm:agent`s and named on their cues. The script's
 * language is `xml:lang` ('' when unknown, as TTML allows), its direction the body's `tts:direction`.
 */
export function renderTtml(cues: readonly Cue[], script: TextScript): string {
  const agents = [...new Set(cues.map((c) => c.speaker).filter((s): s is string => !!s))];
  const agentId = (speaker: string) => `speaker-${agents.indexOf(speaker) + 1}`;
  const head = agents.length
    ? `  <head>\n    <metadata>\n${agents.map((a) => `      <ttm:agent xml:id="${agentId(a)}" type="person"><ttm:name type="full">${escapeXml(a)}</ttm:name></ttm:agent>\n`).join('')}    </metadata>\n  </head>\n`
    : '';
  const body = cues
    .map(
      (c) =>
        `      <p begin="${timestamp(c.start, '.')}" end="${timestamp(c.end, '.')}"${c.speaker ? ` ttm:agent="${agentId(c.speaker)}"` : ''}>${c.lines.map(escapeXml).join('<br/>')}</p>\n`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="${escapeXml(script.language)}">
${head}  <body tts:direction="${script.direction}">
    <div>
${body}    </div>
  </body>
</tt>
`;
}

/** Forced alignment: every word with its begin and end, in seconds (millisecond precision). */
export function renderAlignment(t: Transcript): string {
  const words = timedWords(t);
  if (!words) throw new TimingError('the forced alignment file needs word timings for every segment');
  const ms = (s: number) => Math.round(s * 1000) / 1000;
  return JSON.stringify({ words: words.map((w) => ({ word: w.text, begin: ms(w.start), end: ms(w.end) })) }, null, 2);
}
