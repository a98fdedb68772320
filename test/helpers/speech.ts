// Generated speech for engine tests: espeak-ng (Debian's package, .ci/run installs it) speaking a
// text, with the time each word starts as espeak-ng itself placed it.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { comparable } from '../../src/domain/humanWork/wordTimes.js';

export const HAS_ESPEAK = spawnSync('espeak-ng', ['--version']).status === 0;

export interface Speech {
  wav: Buffer;
  /** When each word of the text starts, by its index among the text's whitespace-separated words (espeak-ng skips a few short ones). */
  words: Array<{ index: number; start: number }>;
}

/** `voice` is an espeak-ng voice (en, fr, es, de, …); `rate` in words per minute. */
export async function speak(text: string, voice = 'en', rate = 150): Promise<Speech> {
  const dir = await mkdtemp(join(tmpdir(), 'speech-'));
  try {
    const out = join(dir, 'speech.wav');
    const { stdout } = await promisify(execFile)('python3', [join('test', 'helpers', 'speech.py'), voice, String(rate), out, text]);
    const starts: number[] = [];
    for (const match of text.matchAll(/\S+/g)) starts.push(match.index);
    const events = JSON.parse(stdout) as Array<{ start: number; offset: number }>;
    // espeak-ng's character positions can lag by one: take the nearest word of the text.
    const nearest = (offset: number) => starts.reduce((best, at, i) => (Math.abs(at - offset) < Math.abs(starts[best]! - offset) ? i : best), 0);
    return { wav: await readFile(out), words: events.map((e) => ({ index: nearest(e.offset), start: e.start })) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Word error rate of `heard` against `said`, on lower-cased words without punctuation. */
export function wordErrorRate(said: string, heard: string): number {
  const words = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const a = words(said);
  const b = words(heard);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]! / a.length;
}

export interface Dialogue {
  wav: Buffer;
  /** Each turn's voice (the speaker) and where its speech starts and ends, in seconds. */
  turns: Array<{ voice: string; text: string; start: number; end: number }>;
}

/** Turns spoken by different espeak-ng voices, one after another with `pause` seconds between them. */
export async function speakDialogue(turns: Array<{ voice: string; text: string }>, pause = 0.6, rate = 150): Promise<Dialogue> {
  const spoken = await Promise.all(turns.map((t) => speak(t.text, t.voice, rate)));
  // speech.py writes plain 16-bit mono PCM WAV: a 44-byte header, then the samples.
  const sampleRate = spoken[0]!.wav.readUInt32LE(24);
  const silence = Buffer.alloc(Math.round(pause * sampleRate) * 2);
  const parts: Buffer[] = [];
  const spans: Dialogue['turns'] = [];
  let at = 0;
  spoken.forEach((s, i) => {
    const pcm = s.wav.subarray(44);
    spans.push({ ...turns[i]!, start: at, end: at + pcm.length / 2 / sampleRate });
    parts.push(pcm, silence);
    at += (pcm.length + silence.length) / 2 / sampleRate;
  });
  const data = Buffer.concat(parts);
  const header = Buffer.from(spoken[0]!.wav.subarray(0, 44));
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(data.length, 40);
  return { wav: Buffer.concat([header, data]), turns: spans };
}

/**
 * How far each timed word of `timed` (in reading order) starts from where espeak-ng said it, in
 * seconds, for the words that are words of `said` (found in order, a few skipped at most).
 */
export function startOffsets(said: string, speech: Speech, timed: ReadonlyArray<{ text: string; start: number }>): number[] {
  const words = said.split(' ').map(comparable);
  const offsets: number[] = [];
  let at = 0;
  for (const w of timed) {
    const index = words.indexOf(comparable(w.text), at);
    if (index < 0 || index > at + 3) continue;
    at = index + 1;
    const spoken = speech.words.find((s) => s.index === index);
    if (spoken) offsets.push(Math.abs(w.start - spoken.start));
  }
  return offsets;
}
